package dev.proxy.server;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parts of a request's target an exchange reads again and again — path, query, host — parsed once from the
 * request head, and the path rewrites of middlewares (which also change the target the forwarder sends).
 */
final class RequestTarget {

    private final HttpRequest request;
    private final String originalHost;
    private String path;
    private String host;
    private Map<String, List<String>> query;

    RequestTarget(HttpRequest request, String originalHost) {
        this.request = request;
        this.originalHost = originalHost;
    }

    /** The request path without the query string (from an absolute-form target, without scheme and authority). */
    String path() {
        if (path == null) {
            String uri = request.uri();
            int start = 0;
            if (!uri.startsWith("/")) {
                // Absolute form: the authority ends at the first '/', '?' or '#'. A '/' found later, in the query,
                // is no path: "http://host?x=/admin" must not route as /admin.
                int scheme = uri.indexOf("://");
                int end = scheme < 0 ? uri.length() : scheme + 3;
                while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
                    end++;
                }
                start = end < uri.length() && uri.charAt(end) == '/' ? end : uri.length();
            }
            int q = uri.indexOf('?', start);
            path = uri.substring(start, q < 0 ? uri.length() : q);
            if (path.isEmpty()) {
                path = "/";
            }
        }
        return path;
    }

    /** Replaces the path, keeping the query: the request target becomes origin form. */
    void rewritePath(String newPath) {
        String rawQuery = rawQuery();
        path = newPath.isEmpty() ? "/" : newPath;
        request.setUri(path + (rawQuery.isEmpty() ? "" : "?" + rawQuery)); // what the forwarder sends as it is
    }

    /** The raw query string without {@code ?}, or empty. */
    String rawQuery() {
        String uri = request.uri();
        int q = uri.indexOf('?');
        return q < 0 ? "" : uri.substring(q + 1);
    }

    /** Decoded values of a query parameter; null when absent. */
    List<String> queryValues(String name) {
        if (query == null) {
            query = new QueryStringDecoder(rawQuery(), StandardCharsets.UTF_8, false).parameters();
        }
        return query.get(name);
    }

    /** The request host, lower case, without port; empty when the request has none. */
    String host() {
        if (host == null) {
            String h = originalHost;
            int colon = h.startsWith("[") ? h.indexOf("]:") + 1 : h.lastIndexOf(':');
            host = (colon > 0 ? h.substring(0, colon) : h).toLowerCase(Locale.ROOT);
        }
        return host;
    }
}
