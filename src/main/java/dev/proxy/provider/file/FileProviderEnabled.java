package dev.proxy.provider.file;

import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.condition.Condition;
import io.micronaut.context.condition.ConditionContext;

/** The file provider exists when the install configuration has a {@code providers.file} section. */
public final class FileProviderEnabled implements Condition {

    @Override
    public boolean matches(ConditionContext context) {
        return context.findBean(InstallConfig.class).map(c -> c.providers().file() != null).orElse(false);
    }
}
