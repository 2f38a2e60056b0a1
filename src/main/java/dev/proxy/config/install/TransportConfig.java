package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;

/** {@code entryPoints.<name>.transport}: lifecycle and client-facing timeouts. */
public record TransportConfig(@Nullable LifeCycleConfig lifeCycle, @Nullable RespondingTimeoutsConfig respondingTimeouts) {

    public static final TransportConfig DEFAULT = new TransportConfig(null, null);

    public TransportConfig {
        lifeCycle = lifeCycle == null ? LifeCycleConfig.DEFAULT : lifeCycle;
        respondingTimeouts = respondingTimeouts == null ? RespondingTimeoutsConfig.DEFAULT : respondingTimeouts;
    }
}
