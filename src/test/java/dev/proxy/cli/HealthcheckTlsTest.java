package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code proxy healthcheck} against a ping entry point with {@code http.tls} (in-JVM data plane, real sockets; the
 * process-level fixture is on the foundation branch).
 */
class HealthcheckTlsTest {

    private DataPlane proxy;

    @BeforeEach
    void start() {
        proxy = new DataPlane("--ping", "--entryPoints.proxy.address=127.0.0.1:0", "--entryPoints.proxy.http.tls=true");
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private record Run(int exit, String out) {
    }

    private static Run healthcheck(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            // A generous timeout: the first TLS handshake of a cold JVM on a loaded 2-core machine has taken > 5 s
            // (the default); this test is about the scheme the probe picks, not about its speed.
            String[] all = new String[args.length + 2];
            all[0] = "healthcheck";
            all[1] = "--timeout=60s";
            System.arraycopy(args, 0, all, 2, args.length);
            int exit = Main.run(all);
            return new Run(exit, captured.toString(StandardCharsets.UTF_8).trim());
        } finally {
            System.setOut(original);
        }
    }

    @Test
    void probesOverHttpsWhenThePingEntryPointIsTls() {
        String address = "--entryPoints.proxy.address=127.0.0.1:" + proxy.port("proxy");
        Run run = healthcheck("--ping", address, "--entryPoints.proxy.http.tls=true");
        assertThat(run).isEqualTo(new Run(0, "OK: https://127.0.0.1:" + proxy.port("proxy") + "/ping"));
    }

    @Test
    void aPlainProbeOfATlsOnlyPingRouterIsUnhealthy() {
        // What Traefik's healthcheck does on such an entry point: the ping router serves TLS connections only.
        Run run = healthcheck("--ping", "--entryPoints.proxy.address=127.0.0.1:" + proxy.port("proxy"));
        assertThat(run).isEqualTo(new Run(1, "Bad healthcheck status: 404 Not Found"));
    }
}
