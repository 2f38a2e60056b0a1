package dev.proxy.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.NotifySocket;
import dev.proxy.testing.ProxyProcess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged program under a (test-played) systemd: {@code READY=1}, watchdog keep-alives, {@code STOPPING=1}. */
class SystemdIT {

    @Test
    void notifiesReadyThenKeepsTheWatchdogAliveWhilePingAnswers() throws Exception {
        int ping = ProxyProcess.freePort();
        try (NotifySocket systemd = NotifySocket.inAbstractNamespace();
             ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping)
                     .env("NOTIFY_SOCKET", systemd.name())
                     .env("WATCHDOG_USEC", "400000") // a keep-alive every 200 ms
                     .start()) {
            await("READY=1 and three WATCHDOG=1").atMost(ProxyProcess.TIMEOUT).pollInterval(Duration.ofMillis(20))
                    .until(() -> systemd.messages().stream().filter("WATCHDOG=1"::equals).count() >= 3);
            assertThat(systemd.messages()).first().isEqualTo("READY=1\nMAINPID=" + proxy.pid());

            proxy.signal("TERM");

            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
            await("STOPPING=1").atMost(ProxyProcess.TIMEOUT).until(() -> systemd.messages().contains("STOPPING=1"));
            assertThat(systemd.messages()).last().as("no keep-alive after STOPPING=1").isEqualTo("STOPPING=1");
            assertThat(proxy.stdout()).noneMatch(l -> l.contains("ERROR"));
        }
    }

    @Test
    void notifiesReadyOnASocketFileAndRefusesAWatchdogWithoutPing(@TempDir Path dir) throws Exception {
        int web = ProxyProcess.freePort();
        try (NotifySocket systemd = NotifySocket.at(dir.resolve("notify"));
             ProxyProcess proxy = ProxyProcess.command("--entryPoints.web.address=127.0.0.1:" + web)
                     .env("NOTIFY_SOCKET", systemd.name())
                     .env("WATCHDOG_USEC", "400000")
                     .start()) {
            await("READY=1").atMost(ProxyProcess.TIMEOUT).until(() -> !systemd.messages().isEmpty());
            assertThat(systemd.messages()).first().isEqualTo("READY=1\nMAINPID=" + proxy.pid());
            assertThat(proxy.awaitLine("systemd watchdog:"))
                    .contains("ERROR")
                    .contains("WATCHDOG_USEC is set but ping is disabled");
        }
    }
}
