package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * {@code rateLimit}: a token bucket per request source. A source may send {@code burst} requests at once and then
 * {@code average} per {@code period}; beyond that it gets 429 with {@code Retry-After}.
 *
 * @param average         requests per period; 0 means no limit
 * @param period          default 1s
 * @param burst           bucket size (default 1)
 * @param sourceCriterion what identifies a source (default: the client's socket address)
 * @param redis           share the buckets between every proxy replica through Redis
 */
public record RateLimit(@Nullable Long average, @Nullable Duration period, @Nullable Long burst,
                        @Nullable SourceCriterion sourceCriterion, @Nullable RedisConfig redis) {

    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

    public RateLimit {
        average = average == null ? 0L : average;
        if (average < 0) {
            throw new InvalidValueException("average", "must not be negative");
        }
        period = period == null ? DEFAULT_PERIOD : period;
        if (period.isZero() || period.isNegative()) {
            throw new InvalidValueException("period", "must be positive");
        }
        burst = burst == null ? 1L : burst;
        if (burst < 1) {
            throw new InvalidValueException("burst", "must be at least 1");
        }
        sourceCriterion = sourceCriterion == null ? SourceCriterion.PEER : sourceCriterion;
    }
}
