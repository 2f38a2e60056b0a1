package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/**
 * One provider's complete dynamic configuration (routers, services, middlewares, TLS). Providers publish whole
 * snapshots of this, never deltas. Decoded from YAML (file provider) and from tags/labels by the same decoder.
 */
public record DynamicConfig(@Nullable HttpConfig http, @Nullable TlsConfig tls) {

    public static final DynamicConfig EMPTY = new DynamicConfig(null, null);

    public DynamicConfig {
        http = http == null ? HttpConfig.EMPTY : http;
        tls = tls == null ? TlsConfig.EMPTY : tls;
    }

    public DynamicConfig(HttpConfig http) {
        this(http, null);
    }
}
