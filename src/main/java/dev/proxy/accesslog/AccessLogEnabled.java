package dev.proxy.accesslog;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** The access log exists when the install configuration has an {@code accessLog} section. */
public final class AccessLogEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.accessLog() != null).orElse(false);
    }
}
