package dev.proxy.metrics;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** Metrics are collected when the install configuration has {@code metrics.prometheus}. */
public final class MetricsEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.metrics().enabled()).orElse(false);
    }
}
