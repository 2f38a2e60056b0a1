package dev.proxy.api;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** The dashboard exists with the API unless {@code api.dashboard=false}. */
public final class DashboardEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.api() != null && c.api().dashboard()).orElse(false);
    }
}
