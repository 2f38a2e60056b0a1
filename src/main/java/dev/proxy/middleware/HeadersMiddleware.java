package dev.proxy.middleware;

import dev.proxy.config.dynamic.Headers;
import dev.proxy.rules.Regex;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code headers}: custom request headers (before forwarding), custom response headers, and CORS — preflight
 * requests ({@code OPTIONS} with {@code Origin} and {@code Access-Control-Request-Method}) are answered here with
 * 200 and the allowed methods, headers and origin; other responses get {@code Access-Control-Allow-Origin} when the
 * request's origin is allowed.
 */
final class HeadersMiddleware implements RequestStep {

    private final Headers config;
    private final List<Regex> originPatterns;
    private final boolean cors;

    HeadersMiddleware(Headers config) {
        this.config = config;
        this.originPatterns = config.accessControlAllowOriginListRegex().stream().map(Regex::compile).toList();
        this.cors = config.hasCors();
    }

    @Override
    public boolean apply(Exchange exchange) {
        HttpHeaders request = exchange.request().headers();
        String origin = request.get(HttpHeaderNames.ORIGIN, "");
        if (cors && exchange.request().method().equals(HttpMethod.OPTIONS) && !origin.isEmpty()
                && request.contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD)) {
            answerPreflight(exchange, origin);
            return false;
        }
        for (Map.Entry<String, String> h : config.customRequestHeaders().entrySet()) {
            if (h.getValue().isEmpty()) {
                request.remove(h.getKey());
            } else {
                request.set(h.getKey(), h.getValue());
            }
            if (isForwardedHeader(h.getKey())) {
                // The forwarder replaces X-Forwarded-* of untrusted peers; a configured value must win over that.
                exchange.setUpstreamHeader(h.getKey(), h.getValue());
            }
        }
        if (!config.customResponseHeaders().isEmpty() || cors) {
            exchange.addResponseHeadHook(response -> {
                HttpHeaders h = response.headers();
                config.customResponseHeaders().forEach((name, value) -> {
                    if (value.isEmpty()) {
                        h.remove(name);
                    } else {
                        h.set(name, value);
                    }
                });
                if (cors) {
                    addCors(h, origin);
                }
            });
        }
        return true;
    }

    private void answerPreflight(Exchange exchange, String origin) {
        FullHttpResponse r = exchange.textResponse(HttpResponseStatus.OK, "");
        HttpHeaders h = r.headers();
        if (config.accessControlAllowCredentials()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
        if (!config.accessControlAllowHeaders().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, String.join(",", config.accessControlAllowHeaders()));
        }
        if (!config.accessControlAllowMethods().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, String.join(",", config.accessControlAllowMethods()));
        }
        String allowed = allowedOrigin(origin);
        if (allowed != null) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
            varyOnOrigin(h, allowed);
        }
        h.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, Long.toString(config.accessControlMaxAge()));
        exchange.respond(r);
    }

    private void addCors(HttpHeaders h, String origin) {
        String allowed = allowedOrigin(origin);
        if (allowed == null) {
            return;
        }
        h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
        if (config.accessControlAllowCredentials()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
        }
        if (!config.accessControlExposeHeaders().isEmpty()) {
            h.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, String.join(",", config.accessControlExposeHeaders()));
        }
        varyOnOrigin(h, allowed);
    }

    /** {@code *}, the origin itself when listed or matched, or null when not allowed. */
    private String allowedOrigin(String origin) {
        if (origin.isEmpty()) {
            return null;
        }
        List<String> list = config.accessControlAllowOriginList();
        if (list.contains("*")) {
            return "*";
        }
        if (list.contains(origin)) {
            return origin;
        }
        for (Regex r : originPatterns) {
            // Whole-string match, unlike Traefik's unanchored one: "https://.*\.example\.com" must not also allow
            // https://a.example.com.attacker.net.
            if (r.matchesFully(origin)) {
                return origin;
            }
        }
        return null;
    }

    private void varyOnOrigin(HttpHeaders h, String allowed) {
        if (config.addVaryHeader() && !allowed.equals("*")) {
            h.add(HttpHeaderNames.VARY, "Origin");
        }
    }

    private static boolean isForwardedHeader(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.startsWith("x-forwarded-") || n.equals("x-real-ip") || n.equals("forwarded");
    }
}
