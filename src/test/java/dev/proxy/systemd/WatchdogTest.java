package dev.proxy.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.NotifySocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WatchdogTest {

    static final long PID = 4242;

    @ParameterizedTest(name = "WATCHDOG_USEC={0} WATCHDOG_PID={1} → every {2} ms")
    @CsvSource(nullValues = "-", value = {
            "-,       -,    -",
            "'',      -,    -",
            "2000000, -,    1000",
            "2000000, 4242, 1000",
            "2000000, 1,    -",
            "30000000, '',  15000",
    })
    void intervalIsHalfTheWatchdogPeriodForThisProcess(String usec, String pid, Long expectedMillis) {
        Map<String, String> env = new HashMap<>();
        if (usec != null) {
            env.put("WATCHDOG_USEC", usec);
        }
        if (pid != null) {
            env.put("WATCHDOG_PID", pid);
        }
        assertThat(Watchdog.interval(env, PID).map(Duration::toMillis)).isEqualTo(Optional.ofNullable(expectedMillis));
    }

    @ParameterizedTest(name = "WATCHDOG_USEC={0}")
    @CsvSource({"0", "-5", "soon"})
    void aBadPeriodIsAnError(String usec) {
        assertThatThrownBy(() -> Watchdog.interval(Map.of("WATCHDOG_USEC", usec), PID))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("WATCHDOG_USEC=" + usec + ": not a positive number of microseconds");
    }

    @Test
    void keepAliveOnlyWhilePingAnswers200() throws Exception {
        AtomicInteger pingStatus = new AtomicInteger(200);
        HttpServer ping = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ping.createContext("/ping", exchange -> {
            exchange.sendResponseHeaders(pingStatus.get(), -1);
            exchange.close();
        });
        ping.start();
        URI target = URI.create("http://127.0.0.1:" + ping.getAddress().getPort() + "/ping");
        try (NotifySocket systemd = NotifySocket.inAbstractNamespace();
             SystemdNotifier notifier = new SystemdNotifier(systemd.name());
             Watchdog watchdog = new Watchdog(notifier, target, Duration.ofSeconds(1))) {
            watchdog.beat();
            pingStatus.set(503);
            watchdog.beat();
            pingStatus.set(200);
            watchdog.beat();

            // Datagrams arrive in order: a keep-alive from the 503 beat would arrive before the second one.
            await().atMost(Duration.ofSeconds(10)).until(() -> systemd.messages().size() >= 2);
            assertThat(systemd.messages()).containsExactly("WATCHDOG=1", "WATCHDOG=1");

            watchdog.close();
            watchdog.beat();
            notifier.send("STOPPING=1");
            await().atMost(Duration.ofSeconds(10)).until(() -> systemd.messages().size() >= 3);
            assertThat(systemd.messages()).containsExactly("WATCHDOG=1", "WATCHDOG=1", "STOPPING=1");
        } finally {
            ping.stop(0);
        }
    }
}
