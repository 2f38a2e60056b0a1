package dev.proxy.cli;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.GoDuration;
import dev.proxy.ping.PingProbe;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code proxy healthcheck}: sends {@code HEAD /ping} to the running instance's ping entry point and exits 0 on 200,
 * 1 otherwise — a container HEALTHCHECK. It reads the same configuration as the server but starts no DI container and
 * uses the JDK's plain HTTP client ({@link PingProbe}), so one call costs a fraction of a second of CPU. It never exits
 * 2, which Docker reserves: usage and configuration errors are reported as unhealthy (1).
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
        PingProbe probe;
        try {
            URI target = url != null ? URI.create(url) : PingProbe.uri(config.load().config(), path);
            probe = new PingProbe(target, parseTimeout());
        } catch (ConfigException | IllegalArgumentException e) {
            System.out.println(PREFIX + e.getMessage());
            return 1;
        }
        PingProbe.Result result = probe.send();
        if (result.failure() != null) {
            System.out.println(PREFIX + result.failure());
            return 1;
        }
        if (!result.healthy()) {
            System.out.println("Bad healthcheck status: " + result.status() + " " + result.reason());
            return 1;
        }
        System.out.println("OK: " + probe.target());
        return 0;
    }

    private Duration parseTimeout() {
        try {
            return GoDuration.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout=" + timeout + ": " + e.getMessage(), e);
        }
    }
}
