package dev.proxy.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.dynamic.Router;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ConfigurationWatcherTest {

    private static final Duration THROTTLE = Duration.ofSeconds(2);

    private final ManualScheduler clock = new ManualScheduler();
    private final List<MergedConfig> applied = new CopyOnWriteArrayList<>();

    private ConfigurationWatcher watcher(Duration throttle) {
        return new ConfigurationWatcher(throttle, clock, List.of(applied::add));
    }

    /** A configuration whose only content is routers with the given names (each to service {@code app}). */
    private static DynamicConfig routers(String... names) {
        Map<String, Router> m = new java.util.LinkedHashMap<>();
        for (String n : names) {
            m.put(n, new Router(null, null, "app", "Path(`/" + n + "`)", null, null));
        }
        return new DynamicConfig(new HttpConfig(m, null, null));
    }

    /** The router names of every merged configuration handed to the listener, in order. */
    private List<Set<String>> appliedRouters() {
        return applied.stream().map(m -> m.routers().keySet()).toList();
    }

    @Test
    void firstChangeIsAppliedAtOnceAndMerged() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"));
        assertThat(applied.get(0).routers().get("a@file").service()).isEqualTo("app@file");
        assertThat(w.current()).isEqualTo(applied.get(0));
    }

    @Test
    void changesWithinTheWindowAreCoalescedAndTheLatestAppliedWhenItEnds() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        clock.advance(Duration.ofMillis(500));
        w.publish("file", routers("b"));
        w.publish("file", routers("c"));
        clock.advance(Duration.ofMillis(1499));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"));
        clock.advance(Duration.ofMillis(1));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"), Set.of("c@file"));
    }

    @Test
    void applyingAtTheEndOfAWindowOpensTheNextWindow() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a")); // t=0 applied, window until 2
        clock.advance(Duration.ofMillis(500));
        w.publish("file", routers("b")); // applied at 2, window until 4
        clock.advance(Duration.ofMillis(2000));
        w.publish("file", routers("c")); // t=2.5, applied at 4, window until 6
        clock.advance(Duration.ofMillis(1499));
        assertThat(appliedRouters()).hasSize(2);
        clock.advance(Duration.ofMillis(1));
        assertThat(appliedRouters()).hasSize(3).last().isEqualTo(Set.of("c@file"));
        clock.advance(Duration.ofMillis(2500)); // t=6.5: the window ended at 6 with nothing pending
        w.publish("file", routers("d"));
        assertThat(appliedRouters()).hasSize(4).last().isEqualTo(Set.of("d@file"));
    }

    @Test
    void aConfigurationEqualToThePreviousOneIsIgnored() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        clock.advance(Duration.ofSeconds(5));
        w.publish("file", routers("a")); // equal by value, a new instance
        clock.advance(Duration.ofSeconds(5));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"));
        assertThat(clock.pendingDelays()).isEmpty();
    }

    @Test
    void aChangeRevertedWithinTheWindowAppliesNothing() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        w.publish("file", routers("b"));
        w.publish("file", routers("a"));
        clock.advance(Duration.ofSeconds(10));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"));
    }

    @Test
    void throttlingIsPerProvider() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        w.publish("file", routers("b")); // throttled
        w.publish("registrycatalog", routers("x")); // another provider: applied at once, with file's applied a
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"), Set.of("a@file", "x@registrycatalog"));
        clock.advance(THROTTLE);
        assertThat(appliedRouters()).last().isEqualTo(Set.of("b@file", "x@registrycatalog"));
    }

    @Test
    void zeroThrottleAppliesEveryChange() {
        ConfigurationWatcher w = watcher(Duration.ZERO);
        w.publish("file", routers("a"));
        w.publish("file", routers("b"));
        w.publish("file", routers("c"));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"), Set.of("b@file"), Set.of("c@file"));
        assertThat(clock.pendingDelays()).isEmpty();
    }

    @Test
    void anEmptyConfigurationRemovesThatProvidersRoutes() {
        ConfigurationWatcher w = watcher(Duration.ZERO);
        w.publish("file", routers("a"));
        w.publish("registrycatalog", routers("x"));
        w.publish("file", DynamicConfig.EMPTY);
        assertThat(appliedRouters()).last().isEqualTo(Set.of("x@registrycatalog"));
    }

    @Test
    void aFailingListenerDoesNotStopTheNextChanges() {
        List<MergedConfig> seen = new CopyOnWriteArrayList<>();
        ConfigurationWatcher w = new ConfigurationWatcher(Duration.ZERO, clock, List.of(
                m -> {
                    throw new IllegalStateException("compile failed");
                },
                seen::add));
        w.publish("file", routers("a"));
        w.publish("file", routers("b"));
        assertThat(seen).extracting(m -> m.routers().keySet()).containsExactly(Set.of("a@file"), Set.of("b@file"));
    }

    @Test
    void nothingIsAppliedAfterClose() {
        ConfigurationWatcher w = watcher(THROTTLE);
        w.publish("file", routers("a"));
        w.publish("file", routers("b"));
        w.close();
        clock.advance(Duration.ofSeconds(10));
        w.publish("file", routers("c"));
        assertThat(appliedRouters()).containsExactly(Set.of("a@file"));
    }
}
