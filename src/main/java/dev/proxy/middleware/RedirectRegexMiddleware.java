package dev.proxy.middleware;

import com.google.re2j.Matcher;
import dev.proxy.config.dynamic.HeaderSyntax;
import dev.proxy.config.dynamic.RedirectRegex;
import dev.proxy.rules.Regex;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code redirectRegex}: when the regex (RE2 syntax, linear time: it runs on every request against a client-chosen
 * URL) matches the request URL, redirects to the URL with each match replaced. The replacement uses Go's template
 * syntax, as Traefik users write it: {@code $1}, {@code ${1}}, {@code $name}, {@code ${name}}, {@code $$} for a
 * dollar; a name is as long as possible ({@code $1x} is the group named {@code 1x}), an unknown group is empty.
 * A URL that the replacement leaves unchanged passes on.
 */
final class RedirectRegexMiddleware implements RequestStep {

    /** One piece of the replacement: literal text, or a group number ({@code group >= 0}; -1 for an unknown one). */
    private record Part(String literal, int group) {
    }

    private final Regex regex;
    private final List<Part> replacement;
    private final boolean permanent;
    private final Predicate<Exchange> trustsForwardedHeaders;

    RedirectRegexMiddleware(RedirectRegex config, Predicate<Exchange> trustsForwardedHeaders) {
        this.regex = Regex.compile(config.regex());
        this.replacement = parse(config.replacement(), regex);
        this.permanent = config.permanent();
        this.trustsForwardedHeaders = trustsForwardedHeaders;
    }

    @Override
    public boolean apply(Exchange exchange) {
        String url = ClientUrl.of(exchange, trustsForwardedHeaders).format();
        Matcher m = regex.matcher(url);
        // Go's ReplaceAllString, step by step: non-overlapping matches, and no replacement for an empty match
        // right after the previous match.
        StringBuilder out = new StringBuilder();
        int lastEnd = 0;
        int search = 0;
        while (search <= url.length() && m.find(search)) {
            out.append(url, lastEnd, m.start());
            if (m.end() > lastEnd || m.start() == 0) {
                appendReplacement(out, m);
            }
            lastEnd = m.end();
            search = Math.max(search + 1, m.end());
        }
        out.append(url, lastEnd, url.length());
        String target = out.toString();
        if (target.equals(url)) {
            return true;
        }
        if (!HeaderSyntax.isFieldValue(target)) {
            // a control character from the Host header: never put it in a Location header
            exchange.respond(HttpResponseStatus.BAD_REQUEST, "Bad Request");
            return false;
        }
        ClientUrl.redirect(exchange, target, permanent);
        return false;
    }

    private void appendReplacement(StringBuilder out, Matcher m) {
        for (Part p : replacement) {
            if (p.literal() != null) {
                out.append(p.literal());
            } else if (p.group() >= 0 && m.group(p.group()) != null) {
                out.append(m.group(p.group()));
            }
        }
    }

    private static List<Part> parse(String template, Regex regex) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '$' || i + 1 >= template.length()) {
                literal.append(c);
                i++;
                continue;
            }
            char n = template.charAt(i + 1);
            if (n == '$') {
                literal.append('$');
                i += 2;
                continue;
            }
            String name;
            int end;
            if (n == '{') {
                int close = template.indexOf('}', i + 2);
                name = close < 0 ? "" : template.substring(i + 2, close);
                end = close + 1;
                if (close < 0 || !name.matches("\\w+")) {
                    literal.append('$'); // malformed: the dollar is literal text, as in Go
                    i++;
                    continue;
                }
            } else {
                end = i + 1;
                while (end < template.length() && (Character.isLetterOrDigit(template.charAt(end)) || template.charAt(end) == '_')) {
                    end++;
                }
                name = template.substring(i + 1, end);
                if (name.isEmpty()) {
                    literal.append('$');
                    i++;
                    continue;
                }
            }
            if (literal.length() > 0) {
                parts.add(new Part(literal.toString(), -1));
                literal.setLength(0);
            }
            parts.add(new Part(null, groupNumber(name, regex)));
            i = end;
        }
        if (literal.length() > 0) {
            parts.add(new Part(literal.toString(), -1));
        }
        return List.copyOf(parts);
    }

    private static int groupNumber(String name, Regex regex) {
        if (name.matches("\\d{1,4}")) {
            int n = Integer.parseInt(name);
            return n <= regex.groupCount() ? n : -1;
        }
        return regex.namedGroups().getOrDefault(name, -1);
    }
}
