package dev.proxy.provider;

import java.time.Duration;

/**
 * Capped, jittered exponential backoff between retries of a failing provider.
 *
 * <p>The n-th retry (n from 0) waits {@code min(initial × multiplier^n, max)}, spread uniformly by
 * ±{@code randomization} of itself and capped again at {@code max}. The spread keeps many proxies that lost the
 * same registry at the same moment from retrying in lock-step.
 *
 * @param initial       first delay
 * @param multiplier    growth per failure
 * @param randomization jitter as a fraction of the delay, 0 (none) to 1
 * @param max           no delay is longer
 */
public record Backoff(Duration initial, double multiplier, double randomization, Duration max) {

    /** Traefik's values (cenkalti/backoff defaults): 500 ms, ×1.5, ±50 %, at most 60 s; retries never give up. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), 1.5, 0.5, Duration.ofSeconds(60));

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max");
        }
        if (multiplier < 1 || randomization < 0 || randomization > 1) {
            throw new IllegalArgumentException("need multiplier >= 1 and 0 <= randomization <= 1");
        }
    }

    /**
     * @param attempt the number of failures before this one in a row (0 for the first retry)
     * @param uniform a random number in [0, 1); 0.5 gives the delay without jitter
     */
    public Duration delay(int attempt, double uniform) {
        double maxNanos = max.toNanos();
        // Math.pow overflows to infinity for huge attempts; min() then yields max, as it should.
        double base = Math.min(initial.toNanos() * Math.pow(multiplier, attempt), maxNanos);
        double jittered = base * (1 + randomization * (2 * uniform - 1));
        return Duration.ofNanos((long) Math.min(jittered, maxNanos));
    }
}
