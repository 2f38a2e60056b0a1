package dev.proxy.provider.registrycatalog;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** The registryCatalog provider exists when the install configuration has a {@code providers.registryCatalog} section. */
public final class RegistryCatalogEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.providers().registryCatalog() != null).orElse(false);
    }
}
