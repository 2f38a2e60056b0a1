package dev.proxy.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log rotation by renaming, with the packaged program: after the file is renamed, lines go on to the renamed file
 * (it is still open) until SIGUSR1, then to a fresh file at the configured path.
 */
class AccessLogRotationIT {

    @Test
    void sigusr1ReopensTheAccessLogAtItsPath(@TempDir Path dir) throws IOException {
        int ping = ProxyProcess.freePort();
        Path log = dir.resolve("logs/access.log");
        Path rotated = dir.resolve("logs/access.log.1");
        try (ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping,
                "--accessLog.filePath=" + log, "--accessLog.addInternals").workingDirectory(dir).start()) {
            proxy.awaitPort(ping);
            assertThat(Loopback.get(ping, "/ping?n=first").statusCode()).isEqualTo(200);
            awaitLine(log, "n=first");

            Files.move(log, rotated);
            assertThat(Loopback.get(ping, "/ping?n=renamed").statusCode()).isEqualTo(200);
            awaitLine(rotated, "n=renamed"); // the renamed file is still the open one

            proxy.signal("USR1");
            proxy.awaitLine("access log: reopened " + log);
            assertThat(Loopback.get(ping, "/ping?n=after").statusCode()).isEqualTo(200);

            awaitLine(log, "n=after");
            assertThat(Files.readString(log)).doesNotContain("n=first", "n=renamed");
            assertThat(Files.readString(rotated)).contains("n=first", "n=renamed").doesNotContain("n=after");
            assertThat(proxy.isAlive()).as("USR1 does not stop the process").isTrue();
            proxy.signal("TERM");
            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
        }
    }

    private static void awaitLine(Path file, String text) {
        await(text + " in " + file).atMost(ProxyProcess.TIMEOUT).pollInterval(Duration.ofMillis(20))
                .until(() -> Files.exists(file) && Files.readString(file).contains(text));
    }
}
