package dev.proxy.server.forward;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;

/**
 * Sets {@code X-Forwarded-For/-Proto/-Host/-Port/-Server} and {@code X-Real-Ip}. Headers sent by the client are
 * kept (and X-Forwarded-For appended to) only when the peer is trusted by the entry point's
 * {@code forwardedHeaders.trustedIPs}; from anyone else they are replaced, so a client cannot forge its address.
 */
final class ForwardedHeaders {

    static final String X_FORWARDED_FOR = "X-Forwarded-For";
    static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";
    static final String X_FORWARDED_HOST = "X-Forwarded-Host";
    static final String X_FORWARDED_PORT = "X-Forwarded-Port";
    static final String X_FORWARDED_SERVER = "X-Forwarded-Server";
    static final String X_REAL_IP = "X-Real-Ip";
    private static final List<String> ALL = List.of(X_FORWARDED_FOR, X_FORWARDED_PROTO, X_FORWARDED_HOST,
            X_FORWARDED_PORT, X_FORWARDED_SERVER, X_REAL_IP, "X-Forwarded-Uri", "X-Forwarded-Method",
            "X-Forwarded-Prefix", "Forwarded");

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
                      String serverName) {
        if (!trusted) {
            for (String name : ALL) {
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

    private static void setUnlessTrusted(HttpHeaders h, boolean trusted, String name, String value) {
        if (!trusted || !h.contains(name)) {
            h.set(name, value);
        }
    }
}
