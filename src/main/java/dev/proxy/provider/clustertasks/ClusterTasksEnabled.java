package dev.proxy.provider.clustertasks;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/**
 * The {@code clusterTasks} provider and its AWS clients exist only when the install configuration has a
 * {@code providers.clusterTasks} section: without it no AWS class is even loaded.
 */
public final class ClusterTasksEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.providers().clusterTasks() != null).orElse(false);
    }
}
