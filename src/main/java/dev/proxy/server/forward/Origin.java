package dev.proxy.server.forward;

/**
 * Where backend connections go: host, port, whether TLS is used, and with which {@link BackendTls} profile (empty:
 * the default TLS client), and whether the server speaks HTTP/2 in cleartext ({@code h2c://}, prior knowledge).
 * Pools are keyed by it, so connections made with different client certificates or protocols are never shared.
 */
public record Origin(String host, int port, boolean tls, String tlsProfile, boolean h2c) {

    public Origin(String host, int port, boolean tls) {
        this(host, port, tls, "", false);
    }

    public Origin(String host, int port, boolean tls, String tlsProfile) {
        this(host, port, tls, tlsProfile, false);
    }

    /** The Host header value for this origin (port omitted when it is the scheme's default). */
    public String authority() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        boolean defaultPort = tls ? port == 443 : port == 80;
        return defaultPort ? h : h + ":" + port;
    }
}
