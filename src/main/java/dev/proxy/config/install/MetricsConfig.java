package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;

/**
 * {@code metrics}: what the proxy measures and where it is exported.
 *
 * @param prometheus   the Prometheus endpoint ({@code prometheus@internal}); metrics are collected only when set
 * @param addInternals count traffic to internal services (ping, api, dashboard, metrics) too (default false)
 */
public record MetricsConfig(@Nullable PrometheusConfig prometheus, @Nullable Boolean addInternals) {

    public static final MetricsConfig NONE = new MetricsConfig(null, null);

    public MetricsConfig {
        addInternals = addInternals != null && addInternals;
    }

    public boolean enabled() {
        return prometheus != null;
    }
}
