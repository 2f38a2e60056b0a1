package dev.proxy.api;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** The API exists when the install configuration has an {@code api} section. */
public final class ApiEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.api() != null).orElse(false);
    }
}
