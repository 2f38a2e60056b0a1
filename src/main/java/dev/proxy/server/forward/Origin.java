package dev.proxy.server.forward;

/** Where backend connections go: host, port and whether TLS is used. Pools are keyed by it. */
public record Origin(String host, int port, boolean tls) {

    /** The Host header value for this origin (port omitted when it is the scheme's default). */
    public String authority() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        boolean defaultPort = tls ? port == 443 : port == 80;
        return defaultPort ? h : h + ":" + port;
    }
}
