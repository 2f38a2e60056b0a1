package dev.proxy.server.forward;

import java.net.URI;
import java.util.Locale;

/**
 * A backend server as the data plane uses it, derived once from its URL when the configuration is compiled.
 *
 * @param url            the server URL as configured
 * @param origin         host, port, TLS
 * @param basePath       path prefix of the URL ("" when none), prepended to the request path
 * @param passHostHeader keep the client's Host (default) or send the server's
 */
public record Target(String url, Origin origin, String basePath, boolean passHostHeader) {

    public static Target of(String url, boolean passHostHeader) {
        return of(url, passHostHeader, "");
    }

    /** @param tlsProfile the {@link BackendTls} key of its service, or empty for the default TLS client */
    public static Target of(String url, boolean passHostHeader, String tlsProfile) {
        URI u = URI.create(url.trim());
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
        boolean tls = scheme.equals("https");
        int port = u.getPort() > 0 ? u.getPort() : tls ? 443 : 80;
        String host = u.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new Target(url, new Origin(host, port, tls, tls ? tlsProfile : "", scheme.equals("h2c")), path,
                passHostHeader);
    }
}
