package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code ipStrategy}: which address of {@code X-Forwarded-For} is the client. {@code depth} n takes the n-th from
 * the right; {@code excludedIPs} skips trusted proxies from the right. Only used when configured.
 */
public record IpStrategy(@Nullable Integer depth, @Nullable List<String> excludedIPs) {

    public IpStrategy {
        depth = depth == null ? 0 : depth;
        if (depth < 0) {
            throw new InvalidValueException("depth", "must not be negative");
        }
        excludedIPs = excludedIPs == null ? List.of() : List.copyOf(excludedIPs);
    }
}
