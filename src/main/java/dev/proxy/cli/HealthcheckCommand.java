package dev.proxy.cli;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.tls.ProbeTls;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code proxy healthcheck}: sends {@code HEAD /ping} to the running instance's ping entry point and exits 0 on 200,
 * 1 otherwise — a container HEALTHCHECK. It reads the same configuration as the server but starts no DI container and
 * uses the JDK's plain HTTP client, so one call costs a fraction of a second of CPU. It never uses
 * {@code HTTP_PROXY}/{@code HTTPS_PROXY} (a probe must reach this host, not a proxy). It never exits 2, which
 * Docker reserves.
 */
@Command(name = "healthcheck", mixinStandardHelpOptions = true,
        description = "Check the running proxy through its ping endpoint (exit 0 healthy, 1 not).")
final class HealthcheckCommand implements Callable<Integer> {

    static final String PREFIX = "Error calling healthcheck: ";

    @Mixin
    ConfigArguments config;

    @Option(names = "--url", paramLabel = "URL",
            description = "Probe this URL instead of http://<ping entry point>/ping (for ping.manualRouting routes).")
    String url;

    @Option(names = "--path", paramLabel = "PATH", defaultValue = "/ping",
            description = "Path to probe on the ping entry point (default /ping).")
    String path;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s", description = "Request timeout (default 5s).")
    String timeout;

    @Override
    public Integer call() {
        URI target;
        try {
            target = url != null ? URI.create(url) : pingUri(config.load().config());
        } catch (ConfigException | IllegalArgumentException e) {
            System.out.println(PREFIX + e.getMessage());
            return 1;
        }
        int millis = (int) dev.proxy.config.decode.GoDuration.parse(timeout).toMillis();
        try {
            HttpURLConnection conn = (HttpURLConnection) target.toURL().openConnection(Proxy.NO_PROXY);
            ProbeTls.trustLoopback(conn);
            conn.setRequestMethod("HEAD");
            conn.setConnectTimeout(millis);
            conn.setReadTimeout(millis);
            conn.setInstanceFollowRedirects(false);
            conn.setUseCaches(false);
            int status = conn.getResponseCode();
            conn.disconnect();
            if (status != 200) {
                System.out.println("Bad healthcheck status: " + status + " " + reason(status, conn));
                return 1;
            }
            System.out.println("OK: " + target);
            return 0;
        } catch (IOException e) {
            System.out.println(PREFIX + e);
            return 1;
        }
    }

    private URI pingUri(InstallConfig config) {
        if (!config.pingEnabled()) {
            throw new IllegalArgumentException("please enable ping (ping: {} in the file, or --ping) to use the health check");
        }
        String name = config.ping().entryPoint();
        EntryPointConfig ep = config.entryPoints().get(name);
        if (ep == null) {
            throw new IllegalArgumentException("ping: missing " + name + " entry point");
        }
        var address = ep.listenAddress();
        // On a TLS entry point the ping router is TLS-only: probe over https (see ProbeTls).
        return URI.create(ProbeTls.scheme(ep) + "://" + address.dialHost() + ":" + address.port() + (path.startsWith("/") ? path : "/" + path));
    }

    private static String reason(int status, HttpURLConnection conn) {
        try {
            String msg = conn.getResponseMessage();
            return msg == null ? "" : msg;
        } catch (IOException e) {
            return "";
        }
    }

}
