package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code ipAllowList}: only clients from {@code sourceRange} pass; others get {@code rejectStatusCode} (403).
 * Without {@code ipStrategy} the socket peer address is checked (X-Forwarded-For is ignored).
 */
public record IpAllowList(@Nullable List<String> sourceRange, @Nullable IpStrategy ipStrategy,
                          @Nullable Integer rejectStatusCode) {

    public IpAllowList {
        sourceRange = sourceRange == null ? List.of() : List.copyOf(sourceRange);
        if (sourceRange.isEmpty()) {
            throw new InvalidValueException("sourceRange", "an allow list needs at least one range");
        }
        rejectStatusCode = rejectStatusCode == null ? 403 : rejectStatusCode;
        if (rejectStatusCode < 400 || rejectStatusCode > 599) {
            throw new InvalidValueException("rejectStatusCode", "must be a 4xx or 5xx status");
        }
    }
}
