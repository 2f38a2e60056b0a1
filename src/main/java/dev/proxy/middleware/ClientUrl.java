package dev.proxy.middleware;

import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The URL the client asked for, as the redirect middlewares see it: {@code scheme://host[:port]/path?query}.
 * The scheme is https on a TLS connection, or what {@code X-Forwarded-Proto} says when the entry point trusts the
 * peer's forwarded headers (behind a TLS-terminating load balancer) — never from an untrusted peer, who could
 * otherwise stop an http→https redirect. The port is left out when it is the scheme's default.
 *
 * @param port empty, or the explicit non-default port without the colon
 */
record ClientUrl(String scheme, String host, String port, String pathAndQuery) {

    static ClientUrl of(Exchange exchange, Predicate<Exchange> trustsForwardedHeaders) {
        String scheme = exchange.isTls() ? "https" : "http";
        if (trustsForwardedHeaders.test(exchange)) {
            String proto = exchange.request().headers().get("X-Forwarded-Proto", "").trim().toLowerCase(Locale.ROOT);
            if (proto.equals("https") || proto.equals("wss")) {
                scheme = "https";
            } else if (proto.equals("http") || proto.equals("ws")) {
                scheme = "http";
            }
        }
        String authority = exchange.originalHost();
        int colon = authority.startsWith("[") ? authority.indexOf("]:") + 1 : authority.lastIndexOf(':');
        String host = colon > 0 ? authority.substring(0, colon) : authority;
        String port = colon > 0 ? authority.substring(colon + 1) : "";
        String query = exchange.rawQuery();
        return new ClientUrl(scheme, host, isDefault(scheme, port) ? "" : port,
                exchange.path() + (query.isEmpty() ? "" : "?" + query));
    }

    static boolean isDefault(String scheme, String port) {
        return port.isEmpty() || scheme.equals("http") && port.equals("80") || scheme.equals("https") && port.equals("443");
    }

    String format() {
        return scheme + "://" + host + (port.isEmpty() ? "" : ":" + port) + pathAndQuery;
    }

    /**
     * Redirects: 302 (307 for methods other than GET and HEAD, which must be repeated as they were), or 301/308
     * when permanent.
     */
    static void redirect(Exchange exchange, String location, boolean permanent) {
        boolean safe = exchange.request().method().equals(HttpMethod.GET) || exchange.isHead();
        HttpResponseStatus status = permanent
                ? (safe ? HttpResponseStatus.MOVED_PERMANENTLY : HttpResponseStatus.PERMANENT_REDIRECT)
                : (safe ? HttpResponseStatus.FOUND : HttpResponseStatus.TEMPORARY_REDIRECT);
        FullHttpResponse r = exchange.textResponse(status, status.reasonPhrase());
        r.headers().set(HttpHeaderNames.LOCATION, location);
        exchange.respond(r);
    }
}
