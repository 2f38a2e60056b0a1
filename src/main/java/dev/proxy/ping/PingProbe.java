package dev.proxy.ping;

import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.ListenAddress;
import dev.proxy.tls.ProbeTls;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.time.Duration;

/**
 * One {@code HEAD} request to the ping endpoint, as {@code proxy healthcheck} and the systemd watchdog send it. Plain
 * JDK HTTP (no DI container, no Netty: a health check runs every few seconds and must stay cheap), never through
 * {@code HTTP_PROXY}/{@code HTTPS_PROXY} or {@code http.proxyHost}: the probe must reach this host, not a proxy.
 *
 * @param target  the ping URL
 * @param timeout connect and read timeout each
 */
public record PingProbe(URI target, Duration timeout) {

    /** What one probe saw: an HTTP status, or the transport error. */
    public record Result(int status, String reason, IOException failure) {

        public boolean healthy() {
            return status == 200;
        }
    }

    /**
     * The ping URL of the configured ping entry point, dialled over loopback when it listens on all interfaces.
     *
     * @throws IllegalArgumentException when ping is disabled or its entry point is not defined
     */
    public static URI uri(InstallConfig config, String path) {
        if (!config.pingEnabled()) {
            throw new IllegalArgumentException("please enable ping (ping: {} in the file, or --ping) to use the health check");
        }
        String name = config.ping().entryPoint();
        EntryPointConfig ep = config.entryPoints().get(name);
        if (ep == null) {
            throw new IllegalArgumentException("ping: missing " + name + " entry point");
        }
        return uri(ep, ep.listenAddress().port(), path);
    }

    /**
     * The URL of {@code path} on an entry point (with {@code port} actually bound): https when the entry point has
     * {@code http.tls}, where the ping router serves TLS connections only (see {@link ProbeTls}).
     */
    public static URI uri(EntryPointConfig ep, int port, String path) {
        ListenAddress address = ep.listenAddress();
        return URI.create(ProbeTls.scheme(ep) + "://" + address.dialHost() + ":" + port
                + (path.startsWith("/") ? path : "/" + path));
    }

    public Result send() {
        int millis = (int) Math.max(1, timeout.toMillis());
        HttpURLConnection conn = null;
        try {
            conn = (HttpURLConnection) target.toURL().openConnection(Proxy.NO_PROXY);
            ProbeTls.trustLoopback(conn);
            conn.setRequestMethod("HEAD");
            conn.setConnectTimeout(millis);
            conn.setReadTimeout(millis);
            conn.setInstanceFollowRedirects(false);
            conn.setUseCaches(false);
            int status = conn.getResponseCode();
            String reason = conn.getResponseMessage();
            return new Result(status, reason == null ? "" : reason, null);
        } catch (IOException e) {
            return new Result(0, "", e);
        } finally {
            if (conn != null) {
                conn.disconnect();
            }
        }
    }
}
