package dev.proxy.server.forward;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.List;

/**
 * Sets {@code X-Forwarded-For/-Proto/-Host/-Port/-Server} and {@code X-Real-Ip}. Headers sent by the client are
 * kept (and X-Forwarded-For appended to) only when the peer is trusted by the entry point's
 * {@code forwardedHeaders.trustedIPs}; from anyone else they are replaced, so a client cannot forge its address.
 */
final class ForwardedHeaders {

    // AsciiString names: their hash is computed once and they are copied to the wire without re-encoding (a
    // measurable share of the per-request cost with plain String names).
    static final AsciiString X_FORWARDED_FOR = AsciiString.cached("X-Forwarded-For");
    static final AsciiString X_FORWARDED_PROTO = AsciiString.cached("X-Forwarded-Proto");
    static final AsciiString X_FORWARDED_HOST = AsciiString.cached("X-Forwarded-Host");
    static final AsciiString X_FORWARDED_PORT = AsciiString.cached("X-Forwarded-Port");
    static final AsciiString X_FORWARDED_SERVER = AsciiString.cached("X-Forwarded-Server");
    static final AsciiString X_REAL_IP = AsciiString.cached("X-Real-Ip");
    private static final List<AsciiString> ALL = List.of(X_FORWARDED_FOR, X_FORWARDED_PROTO, X_FORWARDED_HOST,
            X_FORWARDED_PORT, X_FORWARDED_SERVER, X_REAL_IP, AsciiString.cached("X-Forwarded-Uri"),
            AsciiString.cached("X-Forwarded-Method"), AsciiString.cached("X-Forwarded-Prefix"), AsciiString.cached("Forwarded"));

    private ForwardedHeaders() {
    }

    /**
     * @param trusted    whether the peer may supply forwarded headers
     * @param peerIp     the client socket address
     * @param proto      {@code http}, {@code https}, {@code ws} or {@code wss}
     * @param host       the Host the client asked for
     * @param localPort  the entry point port the request arrived on
     * @param serverName this proxy's host name
     */
    static void apply(HttpHeaders h, boolean trusted, String peerIp, String proto, String host, int localPort,
                      CharSequence serverName) {
        dropUnderscoreAliases(h);
        if (!trusted) {
            for (AsciiString name : ALL) {
                h.remove(name);
            }
            h.set(X_FORWARDED_FOR, peerIp);
        } else {
            List<String> prior = h.getAll(X_FORWARDED_FOR);
            h.set(X_FORWARDED_FOR, prior.isEmpty() ? peerIp : String.join(", ", prior) + ", " + peerIp);
        }
        setUnlessTrusted(h, trusted, X_FORWARDED_PROTO, proto);
        setUnlessTrusted(h, trusted, X_FORWARDED_HOST, host);
        setUnlessTrusted(h, trusted, X_FORWARDED_PORT, Integer.toString(localPort));
        h.set(X_FORWARDED_SERVER, serverName);
        setUnlessTrusted(h, trusted, X_REAL_IP, peerIp);
    }

    /**
     * Removes headers that spell one of the forwarded headers with underscores ({@code X_Forwarded_For},
     * {@code X-Forwarded_For}): many backends (CGI, WSGI, PHP, some frameworks) map {@code -} and {@code _} to the
     * same variable, so such a header would pass for the one the proxy sets. Trusted or not, they are dropped
     * (nginx drops every header with an underscore by default; Traefik drops these).
     */
    private static void dropUnderscoreAliases(HttpHeaders h) {
        List<String> drop = null;
        // Names as CharSequences: no String per header on the common path (no underscore at all).
        for (var it = h.iteratorCharSequence(); it.hasNext(); ) {
            CharSequence name = it.next().getKey();
            if (hasUnderscore(name) && isAlias(name.toString())) {
                if (drop == null) {
                    drop = new java.util.ArrayList<>(2);
                }
                drop.add(name.toString());
            }
        }
        if (drop != null) {
            drop.forEach(h::remove);
        }
    }

    private static boolean hasUnderscore(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) == '_') {
                return true;
            }
        }
        return false;
    }

    private static boolean isAlias(String name) {
        String dashed = name.replace('_', '-');
        for (AsciiString managed : ALL) {
            if (managed.contentEqualsIgnoreCase(dashed)) {
                return true;
            }
        }
        return false;
    }

    private static void setUnlessTrusted(HttpHeaders h, boolean trusted, AsciiString name, CharSequence value) {
        if (!trusted || !h.contains(name)) {
            h.set(name, value);
        }
    }
}
