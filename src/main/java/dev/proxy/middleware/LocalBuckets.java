package dev.proxy.middleware;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;

/**
 * Token buckets per source in this process (Bucket4j, lock-free: two threads racing for the last token cannot both
 * get it). Memory is bounded: at most {@link #MAX_SOURCES} buckets (Caffeine evicts the least useful first), and a
 * bucket unused for longer than it takes to refill completely is dropped — a new one would be identical.
 * An evicted source starts again with a full bucket; a client spraying many sources can cause that for others,
 * which is the price of bounded memory (as in Traefik).
 */
final class LocalBuckets {

    static final int MAX_SOURCES = 65_536;

    private final Bandwidth limit;
    private final TimeMeter clock;
    private final Cache<String, Bucket> buckets;

    LocalBuckets(long average, Duration period, long burst, TimeMeter clock, int maxSources) {
        this.limit = bandwidth(average, period, burst);
        this.clock = clock;
        // Time to refill an empty bucket (plus a period), capped at a day; computed in double to avoid overflow.
        double refillNanos = (double) period.toNanos() * burst / average + period.toNanos();
        Duration refill = Duration.ofNanos((long) Math.min(refillNanos, Duration.ofDays(1).toNanos()));
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxSources)
                .expireAfterAccess(refill)
                .ticker(clock::currentTimeNanos) // the buckets' clock, so that a fake clock in tests moves both
                .executor(Runnable::run)         // evict on the calling thread: no background pool per middleware
                .build();
    }

    static Bandwidth bandwidth(long average, Duration period, long burst) {
        return Bandwidth.builder().capacity(burst).refillGreedy(average, period).initialTokens(burst).build();
    }

    ConsumptionProbe tryConsume(String source) {
        return buckets.get(source, k -> Bucket.builder().addLimit(limit).withCustomTimePrecision(clock).build())
                .tryConsumeAndReturnRemaining(1);
    }

    /** Buckets held now. */
    long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
