package dev.proxy.provider;

import dev.proxy.config.dynamic.DynamicConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a polling provider's fetch on its own thread: every {@code interval} while it succeeds, publishing each
 * result; after a failure it publishes nothing, so the last good configuration stays in force, and retries with
 * {@link Backoff} (by default 500 ms, ×1.5, ±50 % jitter, at most 60 s, never giving up) until a fetch succeeds,
 * which restores the interval. Failures are logged once when the provider starts failing (with the reason) and
 * once when it recovers, not on every retry.
 *
 * <p>The fetch's exception message is logged: providers must keep secrets (tokens, keys) out of it.
 */
public final class PollingSupervisor {

    private static final Logger LOG = LoggerFactory.getLogger(PollingSupervisor.class);

    private final String provider;
    private final Duration interval;
    private final Callable<DynamicConfig> fetch;
    private final ConfigurationSink sink;
    private final SerialScheduler scheduler;
    private final Backoff backoff;
    private final DoubleSupplier random;

    // Touched only on the scheduler's thread.
    private int failures;
    private boolean everSucceeded;
    private volatile boolean stopped;

    public PollingSupervisor(String provider, Duration interval, Callable<DynamicConfig> fetch, ConfigurationSink sink) {
        this(provider, interval, fetch, sink, new ThreadScheduler("proxy-provider-" + provider), Backoff.DEFAULT,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    PollingSupervisor(String provider, Duration interval, Callable<DynamicConfig> fetch, ConfigurationSink sink,
                      SerialScheduler scheduler, Backoff backoff, DoubleSupplier random) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("polling interval must be positive");
        }
        this.provider = provider;
        this.interval = interval;
        this.fetch = fetch;
        this.sink = sink;
        this.scheduler = scheduler;
        this.backoff = backoff;
        this.random = random;
    }

    /** Polls at once, then keeps polling until {@link #stop()}. */
    public void start() {
        scheduler.execute(this::poll);
    }

    public void stop() {
        stopped = true;
        scheduler.close();
    }

    private void poll() {
        if (stopped) {
            return;
        }
        DynamicConfig config;
        long start = System.nanoTime();
        try {
            config = Objects.requireNonNull(fetch.call(), "the fetch returned no configuration");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // stopping
        } catch (Exception e) {
            sink.refreshFailed(provider, Duration.ofNanos(System.nanoTime() - start), reason(e));
            failed(e);
            return;
        }
        sink.refreshed(provider, Duration.ofNanos(System.nanoTime() - start));
        if (failures > 0) {
            LOG.info("provider {}: recovered after {} failed attempts", provider, failures);
        }
        failures = 0;
        everSucceeded = true;
        sink.publish(provider, config);
        scheduler.schedule(interval, this::poll);
    }

    private void failed(Exception e) {
        Duration retry = backoff.delay(failures, random.getAsDouble());
        if (failures == 0) {
            String reason = reason(e);
            LOG.warn("provider {}: cannot read its source, {}; retrying with backoff: {}", provider,
                    everSucceeded ? "keeping its last good configuration" : "no configuration from it yet", reason);
        } else {
            LOG.debug("provider {}: still failing ({} attempts), next retry in {} ms: {}", provider, failures + 1,
                    retry.toMillis(), e.toString());
        }
        failures++;
        scheduler.schedule(retry, this::poll);
    }

    private static String reason(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
