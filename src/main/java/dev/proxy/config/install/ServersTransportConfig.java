package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code serversTransport}: how the proxy talks to every backend.
 *
 * @param maxIdleConnsPerHost idle keep-alive connections kept per backend and per I/O thread (default 200)
 * @param forwardingTimeouts  dial, response-header and idle timeouts
 */
public record ServersTransportConfig(@Nullable Integer maxIdleConnsPerHost,
                                     @Nullable ForwardingTimeoutsConfig forwardingTimeouts) {

    public static final ServersTransportConfig DEFAULT = new ServersTransportConfig(null, null);

    public ServersTransportConfig {
        maxIdleConnsPerHost = maxIdleConnsPerHost == null ? 200 : maxIdleConnsPerHost;
        if (maxIdleConnsPerHost < 0) {
            throw new InvalidValueException("maxIdleConnsPerHost", "must not be negative");
        }
        forwardingTimeouts = forwardingTimeouts == null ? ForwardingTimeoutsConfig.DEFAULT : forwardingTimeouts;
    }
}
