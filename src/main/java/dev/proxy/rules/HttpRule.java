package dev.proxy.rules;

import dev.proxy.rules.FunctionSet.Function;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * A compiled router rule (Traefik v3 syntax), for example
 * {@code Host(`example.com`) && (PathPrefix(`/api`) || Header(`X-Canary`, `1`))}.
 *
 * <p>Matchers (names also accepted all lower case, all upper case or Title case):
 * <ul>
 *   <li>{@code Host(h)} — see {@link HostMatcher}: case-insensitive, trailing dot ignored, {@code *} and
 *       {@code *.example.com};</li>
 *   <li>{@code HostRegexp(re)}, {@code PathRegexp(re)} — the regular expression (RE2 syntax, see {@link Regex})
 *       matches somewhere in the host / path;</li>
 *   <li>{@code Path(p)} — the path equals {@code p}; {@code PathPrefix(p)} — the path starts with {@code p}
 *       (a plain string prefix: {@code /products} matches {@code /products-for-sale}); both start with
 *       {@code /};</li>
 *   <li>{@code Method(m)} — the method, compared in upper case;</li>
 *   <li>{@code Header(k, v)} — some value of header {@code k} equals {@code v};
 *       {@code HeaderRegexp(k, re)} — some value matches;</li>
 *   <li>{@code Query(k)} — parameter {@code k} is present with an empty value ({@code ?k} or {@code ?k=});
 *       {@code Query(k, v)} — some value equals {@code v}; {@code QueryRegexp(k, re)} — some value matches
 *       ({@code QueryRegexp(k)} is {@code Query(k)});</li>
 *   <li>{@code ClientIP(ip or cidr)} — see {@link ClientIpMatcher}.</li>
 * </ul>
 * Empty arguments are refused. Everything is validated and precompiled here, off the request path; matching
 * is plain string comparisons except for the regexp matchers.
 */
public final class HttpRule implements RequestMatcher {

    private static final FunctionSet<RequestFacts> MATCHERS = new FunctionSet<>("rule", "matcher",
            new Function<>("Host", 1, 1, false, args -> HostMatcher.of(args.get(0))),
            new Function<>("HostRegexp", 1, 1, false, args -> {
                Regex re = Regex.compile(args.get(0));
                return request -> re.find(request.host());
            }),
            new Function<>("Path", 1, 1, false, args -> {
                String path = absolutePath(args.get(0));
                return request -> request.path().equals(path);
            }),
            new Function<>("PathPrefix", 1, 1, false, args -> {
                String prefix = absolutePath(args.get(0));
                return request -> request.path().startsWith(prefix);
            }),
            new Function<>("PathRegexp", 1, 1, false, args -> {
                Regex re = Regex.compile(args.get(0));
                return request -> re.find(request.path());
            }),
            new Function<>("Method", 1, 1, false, args -> {
                String method = args.get(0).toUpperCase(Locale.ROOT);
                return request -> request.method().equals(method);
            }),
            new Function<>("Header", 2, 2, false, args -> {
                String name = args.get(0);
                String value = args.get(1);
                return request -> request.headerValues(name).contains(value);
            }),
            new Function<>("HeaderRegexp", 2, 2, false, args -> {
                String name = args.get(0);
                Regex re = Regex.compile(args.get(1));
                return request -> anyMatches(request.headerValues(name), re);
            }),
            new Function<>("Query", 1, 2, false, HttpRule::query),
            new Function<>("QueryRegexp", 1, 2, false, args -> {
                if (args.size() == 1) {
                    return query(args);
                }
                String name = args.get(0);
                Regex re = Regex.compile(args.get(1));
                return request -> {
                    List<String> values = request.queryValues(name);
                    return values != null && anyMatches(values, re);
                };
            }),
            new Function<>("ClientIP", 1, 1, false, args -> ClientIpMatcher.of(args.get(0))));

    private final String rule;
    private final Expr expr;
    private final Predicate<RequestFacts> predicate;

    private HttpRule(String rule, Expr expr, Predicate<RequestFacts> predicate) {
        this.rule = rule;
        this.expr = expr;
        this.predicate = predicate;
    }

    /**
     * Parses and compiles a rule.
     *
     * @throws RuleSyntaxException if the rule does not parse, names an unknown matcher, gives a matcher the wrong
     *                             number of arguments or an invalid one; the message names the column
     */
    public static HttpRule compile(String rule) {
        Expr expr = RuleParser.parse(rule);
        return new HttpRule(rule, expr, MATCHERS.compile(expr, rule));
    }

    /**
     * The priority of a router that sets none (or sets 0): the rule's length, so that longer, usually more
     * specific rules are tried first. Counted in UTF-8 bytes, as Traefik (Go) counts it, so both order a
     * configuration the same way.
     */
    public static int priority(String rule) {
        int bytes = 0;
        for (int i = 0; i < rule.length(); i++) {
            char c = rule.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < rule.length()
                    && Character.isLowSurrogate(rule.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3; // BMP character, or a lone surrogate (Go writes it as U+FFFD, 3 bytes)
            }
        }
        return bytes;
    }

    @Override
    public boolean matches(RequestFacts request) {
        return predicate.test(request);
    }

    /** The parsed rule. */
    public Expr expr() {
        return expr;
    }

    /**
     * The host names of the rule's {@code Host(...)} matchers, lower case, in order, without repeats and without
     * those under a negation: the names a certificate resolver obtains a certificate for, and the names whose TLS
     * options this router decides.
     */
    public List<String> hosts() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        collectHosts(expr, out);
        return List.copyOf(out);
    }

    private static void collectHosts(Expr e, java.util.Set<String> out) {
        if (e instanceof Expr.And and) {
            and.operands().forEach(o -> collectHosts(o, out));
        } else if (e instanceof Expr.Or or) {
            or.operands().forEach(o -> collectHosts(o, out));
        } else if (e instanceof Expr.Call call && call.name().equalsIgnoreCase("Host")) {
            String host = call.args().get(0).toLowerCase(Locale.ROOT);
            out.add(host.endsWith(".") ? host.substring(0, host.length() - 1) : host);
        }
    }

    /** {@link #priority(String)} of this rule. */
    public int defaultPriority() {
        return priority(rule);
    }

    /** The rule as written. */
    @Override
    public String toString() {
        return rule;
    }

    private static Predicate<RequestFacts> query(List<String> args) {
        String name = args.get(0);
        String value = args.size() == 2 ? args.get(1) : "";
        return request -> {
            List<String> values = request.queryValues(name);
            return values != null && values.contains(value);
        };
    }

    private static String absolutePath(String path) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path '" + path + "' does not start with '/'");
        }
        return path;
    }

    private static boolean anyMatches(List<String> values, Regex re) {
        for (int i = 0, n = values.size(); i < n; i++) {
            if (re.find(values.get(i))) {
                return true;
            }
        }
        return false;
    }
}
