package dev.proxy.provider;

import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each provider has been doing: refreshes, failures, how long they took, when the last one succeeded. Fed
 * through the {@link ConfigurationWatcher} (the sink every provider reports to); read by the API and the metrics.
 * Updates come from providers' threads, reads from anywhere.
 */
@Singleton
public class ProviderActivity {

    private final Clock clock;
    private final Map<String, Stats> byProvider = new ConcurrentHashMap<>();

    public ProviderActivity() {
        this(Clock.systemUTC());
    }

    public ProviderActivity(Clock clock) {
        this.clock = clock;
    }

    /**
     * One provider's activity at one moment.
     *
     * @param refreshes     successful reads of the source
     * @param failures      failed reads
     * @param refreshTime   time spent in all reads, successful or not
     * @param lastSuccess   end of the last successful read, null before the first
     * @param lastFailure   end of the last failed read, null when none failed
     * @param lastError     why the last read failed, null when the last read succeeded
     * @param lastPublished when the provider last handed over a configuration (it may have been unchanged)
     */
    public record Status(long refreshes, long failures, Duration refreshTime, @Nullable Instant lastSuccess,
                         @Nullable Instant lastFailure, @Nullable String lastError, @Nullable Instant lastPublished) {
    }

    void refreshed(String provider, Duration took) {
        stats(provider).update(s -> new Status(s.refreshes() + 1, s.failures(), s.refreshTime().plus(took),
                clock.instant(), s.lastFailure(), null, s.lastPublished()));
    }

    void failed(String provider, Duration took, String reason) {
        stats(provider).update(s -> new Status(s.refreshes(), s.failures() + 1, s.refreshTime().plus(took),
                s.lastSuccess(), clock.instant(), reason, s.lastPublished()));
    }

    void published(String provider) {
        stats(provider).update(s -> new Status(s.refreshes(), s.failures(), s.refreshTime(), s.lastSuccess(),
                s.lastFailure(), s.lastError(), clock.instant()));
    }

    /** Every provider that reported anything, by name. */
    public Map<String, Status> snapshot() {
        Map<String, Status> out = new TreeMap<>();
        byProvider.forEach((name, stats) -> out.put(name, stats.current));
        return out;
    }

    /** One provider's status, null when it never reported. */
    public @Nullable Status status(String provider) {
        Stats s = byProvider.get(provider);
        return s == null ? null : s.current;
    }

    private Stats stats(String provider) {
        return byProvider.computeIfAbsent(provider, p -> new Stats());
    }

    /** A provider's status, replaced as a whole so that readers never see half an update. */
    private static final class Stats {
        private volatile Status current = new Status(0, 0, Duration.ZERO, null, null, null, null);

        synchronized void update(java.util.function.UnaryOperator<Status> change) {
            current = change.apply(current);
        }
    }
}
