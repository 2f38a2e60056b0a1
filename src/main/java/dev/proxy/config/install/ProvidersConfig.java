package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * {@code providers}: each present section enables that provider ({@code --providers.clusterTasks=true} enables it
 * with defaults).
 *
 * @param providersThrottleDuration minimum time between two configurations applied from one provider (default 2s)
 */
public record ProvidersConfig(@Nullable Duration providersThrottleDuration, @Nullable FileProviderConfig file,
                              @Nullable RegistryCatalogConfig registryCatalog,
                              @Nullable ClusterTasksConfig clusterTasks) {

    public static final Duration DEFAULT_THROTTLE = Duration.ofSeconds(2);
    public static final ProvidersConfig NONE = new ProvidersConfig(null, null, null, null);

    public ProvidersConfig {
        providersThrottleDuration = providersThrottleDuration == null ? DEFAULT_THROTTLE : providersThrottleDuration;
        if (providersThrottleDuration.isNegative()) {
            throw new InvalidValueException("providersThrottleDuration", "must not be negative");
        }
    }
}
