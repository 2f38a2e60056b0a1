package dev.proxy.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;

/**
 * The checks a request head passes after Netty's parser (which already refuses bad lines, bad header names and
 * values, duplicate Content-Length, Transfer-Encoding with Content-Length or on HTTP/1.0 — see
 * {@link ProtocolNegotiator}) and before routing; it also brings the request target to the one form routing and
 * forwarding share: origin form, with the path normalised ({@link PathNormalizer}) and, for an absolute-form
 * target, the Host header replaced by the target's authority (RFC 9112 §3.2.2), so the host routed on is the host
 * forwarded.
 */
final class RequestHeadCheck {

    /** The outcome: the request goes on ({@link #PASS}), is answered locally ({@link #OPTIONS_ASTERISK}), or refused. */
    record Verdict(HttpResponseStatus status, String reason) {
    }

    static final Verdict PASS = new Verdict(null, null);
    /** {@code OPTIONS *}: a question about the server itself, answered by the proxy (as Go's net/http does). */
    static final Verdict OPTIONS_ASTERISK = new Verdict(HttpResponseStatus.OK, "OPTIONS *");

    private RequestHeadCheck() {
    }

    static Verdict check(HttpRequest request) {
        HttpVersion version = request.protocolVersion();
        if (!version.equals(HttpVersion.HTTP_1_1) && !version.equals(HttpVersion.HTTP_1_0)) {
            return new Verdict(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "version " + version.text());
        }
        HttpHeaders h = request.headers();
        List<String> te = h.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        // Only a single "chunked" (any case, as nginx and HAProxy accept it): "chunked, chunked", "gzip, chunked",
        // "identity" or "xchunked" are framings no backend should be left to guess at (nginx answers 501).
        if (!te.isEmpty() && (te.size() > 1 || !HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(te.get(0)))) {
            return bad("Transfer-Encoding " + te);
        }
        List<String> hosts = h.getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || hosts.isEmpty() && version.equals(HttpVersion.HTTP_1_1)) {
            return bad(hosts.size() + " Host headers"); // RFC 9112 §3.2: exactly one in HTTP/1.1
        }
        if (!hosts.isEmpty() && !validAuthority(hosts.get(0))) {
            return bad("Host " + hosts.get(0));
        }
        String uri = request.uri();
        if (uri.equals("*")) {
            return request.method().equals(HttpMethod.OPTIONS) ? OPTIONS_ASTERISK : bad("target * with " + request.method());
        }
        if (uri.indexOf('#') >= 0) {
            return bad("a fragment in the request target"); // never sent by a client (RFC 9112 §3.2)
        }
        if (!uri.startsWith("/")) {
            Verdict absolute = toOriginForm(request);
            if (absolute != PASS) {
                return absolute;
            }
            uri = request.uri();
        }
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String normal;
        try {
            normal = PathNormalizer.normalize(path);
        } catch (PathNormalizer.RejectedPath e) {
            return bad(e.getMessage());
        }
        if (!normal.equals(path)) {
            request.setUri(q < 0 ? normal : normal + uri.substring(q));
        }
        return PASS;
    }

    /** {@code http://authority/path?query}: the authority becomes the Host header, the rest the target. */
    private static Verdict toOriginForm(HttpRequest request) {
        String uri = request.uri();
        int sep = uri.indexOf("://");
        String scheme = sep < 0 ? "" : uri.substring(0, sep);
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            return bad("request target " + uri);
        }
        int start = sep + 3;
        int end = start;
        while (end < uri.length() && uri.charAt(end) != '/' && uri.charAt(end) != '?') {
            end++;
        }
        String authority = uri.substring(start, end);
        if (authority.isEmpty() || !validAuthority(authority)) {
            return bad("authority " + authority);
        }
        String rest = uri.substring(end);
        request.headers().set(HttpHeaderNames.HOST, authority);
        request.setUri(rest.isEmpty() ? "/" : rest.startsWith("?") ? "/" + rest : rest);
        return PASS;
    }

    /** host[:port] with the characters of a reg-name or an IP literal; no user info, no path, no spaces. */
    private static boolean validAuthority(String a) {
        for (int i = 0; i < a.length(); i++) {
            char c = a.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '.' || c == '-' || c == '_' || c == '~' || c == ':' || c == '[' || c == ']' || c == '%';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static Verdict bad(String reason) {
        return new Verdict(HttpResponseStatus.BAD_REQUEST, reason);
    }
}
