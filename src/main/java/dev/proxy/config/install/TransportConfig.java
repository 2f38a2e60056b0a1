package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code entryPoints.<name>.transport}: lifecycle, client-facing timeouts and the connection cap.
 *
 * @param maxConnections client connections the entry point holds open at once; a connection accepted over the cap is
 *                       closed at once, before anything is read from it, and the ones already open go on being
 *                       served. 0 (the default, as Traefik, which has no such cap) means no limit
 */
public record TransportConfig(@Nullable LifeCycleConfig lifeCycle, @Nullable RespondingTimeoutsConfig respondingTimeouts,
                              @Nullable Integer maxConnections) {

    public static final int DEFAULT_MAX_CONNECTIONS = 0;
    public static final TransportConfig DEFAULT = new TransportConfig(null, null, null);

    public TransportConfig {
        lifeCycle = lifeCycle == null ? LifeCycleConfig.DEFAULT : lifeCycle;
        respondingTimeouts = respondingTimeouts == null ? RespondingTimeoutsConfig.DEFAULT : respondingTimeouts;
        maxConnections = maxConnections == null ? DEFAULT_MAX_CONNECTIONS : maxConnections;
        if (maxConnections < 0) {
            throw new InvalidValueException("maxConnections", "must not be negative (0 means no limit)");
        }
    }
}
