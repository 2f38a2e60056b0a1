package dev.proxy.tls;

import dev.proxy.config.install.EntryPointConfig;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.net.InetAddress;
import java.net.URLConnection;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;

/**
 * TLS for {@code proxy healthcheck}'s probe of its own ping entry point.
 *
 * <p>The ping router is TLS-only on an entry point with {@code http.tls} (as in Traefik), so the probe speaks HTTPS
 * there. A probe of a loopback address does not verify the certificate: it checks that this process answers, and
 * on loopback nobody else can; the certificate served for 127.0.0.1 is usually the generated default one, which no
 * trust store knows, and whether the real certificates are valid is what clients and monitoring check from outside.
 * A probe of any other address (a {@code --url} naming a host) is verified as usual, against the JVM's trust store.
 */
public final class ProbeTls {

    private ProbeTls() {
    }

    /** {@code https} when the entry point makes every router on it TLS-only, else {@code http}. */
    public static String scheme(EntryPointConfig entryPoint) {
        return entryPoint.http().tls() != null ? "https" : "http";
    }

    /** Makes an HTTPS connection to a loopback address skip certificate and host name checks (see above). */
    public static void trustLoopback(URLConnection connection) {
        if (!(connection instanceof HttpsURLConnection https) || !isLoopback(connection.getURL().getHost())) {
            return;
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
            https.setSSLSocketFactory(context.getSocketFactory());
            https.setHostnameVerifier((host, session) -> true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
    }

    static boolean isLoopback(String host) {
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Only literal addresses: resolving a name to decide whether to verify it would let DNS decide.
        if (!h.matches("[0-9.]+") && !h.contains(":")) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
