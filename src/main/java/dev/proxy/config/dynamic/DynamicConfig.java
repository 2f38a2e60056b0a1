package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/**
 * One provider's complete dynamic configuration (routers, services, middlewares). Providers publish whole
 * snapshots of this, never deltas. Decoded from YAML (file provider) and from tags/labels by the same decoder.
 */
public record DynamicConfig(@Nullable HttpConfig http) {

    public static final DynamicConfig EMPTY = new DynamicConfig(null);

    public DynamicConfig {
        http = http == null ? HttpConfig.EMPTY : http;
    }
}
