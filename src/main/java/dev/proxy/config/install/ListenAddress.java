package dev.proxy.config.install;

import java.net.InetSocketAddress;

/**
 * An entry point's listen address: {@code :8080} (all interfaces), {@code 127.0.0.1:8080} or {@code [::1]:8080}.
 * A {@code /tcp} suffix is accepted as in Traefik; {@code /udp} is not supported.
 */
public record ListenAddress(String host, int port) {

    public static ListenAddress parse(String text) {
        String s = text.trim();
        if (s.endsWith("/tcp")) {
            s = s.substring(0, s.length() - 4);
        } else if (s.contains("/")) {
            throw new IllegalArgumentException("only TCP entry points are supported (expected [host]:port)");
        }
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected [host]:port, for example :8080 or 127.0.0.1:8080");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("an IPv6 host must be in brackets, for example [::1]:8080");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number (expected [host]:port)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
        return new ListenAddress(host, port);
    }

    /** The socket address to bind: all interfaces when no host is given. */
    public InetSocketAddress bindAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** The host a local client should dial to reach this address (loopback when bound to all interfaces). */
    public String dialHost() {
        if (host.isEmpty() || host.equals("0.0.0.0")) {
            return "127.0.0.1";
        }
        if (host.equals("::")) {
            return "[::1]";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
