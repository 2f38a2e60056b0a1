package dev.proxy.provider;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.Router;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PollingSupervisorTest {

    private static final Duration INTERVAL = Duration.ofSeconds(15);

    private final ManualScheduler clock = new ManualScheduler();
    private final RecordingSink sink = new RecordingSink();
    private final RecordedLogs logs = new RecordedLogs(PollingSupervisor.class);
    /** Scripted outcomes of the fetch: a configuration, or an exception to throw. */
    private final Deque<Object> outcomes = new ArrayDeque<>();
    private final List<Duration> attempts = new ArrayList<>();

    @AfterEach
    void closeLogs() {
        logs.close();
    }

    private static DynamicConfig config(String router) {
        return new DynamicConfig(new HttpConfig(Map.of(router, new Router(null, null, "app", "", null, null)), null, null));
    }

    private PollingSupervisor supervisor() {
        return new PollingSupervisor("registrycatalog", INTERVAL, () -> {
            attempts.add(clock.now());
            Object next = outcomes.isEmpty() ? config("steady") : outcomes.poll();
            if (next instanceof Exception e) {
                throw e;
            }
            return (DynamicConfig) next;
        }, sink, clock, Backoff.DEFAULT, () -> 0.5);
    }

    @Test
    void pollsAtOnceThenEveryIntervalPublishingEachResult() {
        outcomes.add(config("a"));
        outcomes.add(config("b"));
        supervisor().start();
        assertThat(sink.configs()).containsExactly(config("a"));
        clock.advance(INTERVAL);
        assertThat(sink.configs()).containsExactly(config("a"), config("b"));
        assertThat(sink.count()).isEqualTo(2);
        clock.advance(INTERVAL);
        assertThat(attempts).containsExactly(Duration.ZERO, INTERVAL, INTERVAL.multipliedBy(2));
    }

    @Test
    void aFailurePublishesNothingAndRetriesWithBackoffThenTheIntervalResumes() {
        outcomes.add(config("a"));
        outcomes.add(new IOException("connection refused"));
        outcomes.add(new IOException("connection refused"));
        outcomes.add(new IOException("connection refused"));
        outcomes.add(config("b"));
        supervisor().start();
        clock.advance(Duration.ofSeconds(60));
        assertThat(attempts).containsExactly(
                Duration.ZERO,
                Duration.ofMillis(15_000),  // fails
                Duration.ofMillis(15_500),  // +500 ms, fails
                Duration.ofMillis(16_250),  // +750 ms, fails
                Duration.ofMillis(17_375),  // +1125 ms, succeeds
                Duration.ofMillis(32_375),  // interval again
                Duration.ofMillis(47_375));
        // Only successes are published: the last good configuration stays in force meanwhile.
        assertThat(sink.configs()).startsWith(config("a"), config("b"));
    }

    @Test
    void logsOncePerStateChangeNotOnEveryRetry() {
        outcomes.add(config("a"));
        for (int i = 0; i < 5; i++) {
            outcomes.add(new IOException("connection refused"));
        }
        outcomes.add(config("b"));
        outcomes.add(new IllegalStateException("HTTP 403"));
        supervisor().start();
        clock.advance(Duration.ofSeconds(120));
        assertThat(logs.at(Level.WARN)).containsExactly(
                "provider registrycatalog: cannot read its source, keeping its last good configuration;"
                        + " retrying with backoff: connection refused",
                "provider registrycatalog: cannot read its source, keeping its last good configuration;"
                        + " retrying with backoff: HTTP 403");
        assertThat(logs.at(Level.INFO)).containsExactly(
                "provider registrycatalog: recovered after 5 failed attempts",
                "provider registrycatalog: recovered after 1 failed attempts");
    }

    @Test
    void failingFromTheStartSaysThereIsNoConfigurationYet() {
        outcomes.add(new IOException("connection refused"));
        supervisor().start();
        assertThat(sink.count()).isZero();
        assertThat(logs.at(Level.WARN)).singleElement().asString().contains("no configuration from it yet");
    }

    @Test
    void aNullResultCountsAsAFailure() {
        outcomes.add(config("a"));
        PollingSupervisor s = new PollingSupervisor("clustertasks", INTERVAL, () -> null, sink, clock, Backoff.DEFAULT,
                () -> 0.5);
        s.start();
        assertThat(sink.count()).isZero();
        assertThat(clock.pendingDelays()).containsExactly(Duration.ofMillis(500));
    }

    @Test
    void stopEndsPolling() {
        PollingSupervisor s = supervisor();
        s.start();
        s.stop();
        clock.advance(Duration.ofMinutes(5));
        assertThat(attempts).containsExactly(Duration.ZERO);
    }
}
