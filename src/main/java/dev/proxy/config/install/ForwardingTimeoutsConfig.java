package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * {@code serversTransport.forwardingTimeouts}: timeouts towards backends.
 *
 * @param dialTimeout           connecting to a backend (default 30s); exceeded → 502
 * @param responseHeaderTimeout from the end of the request to the response head; 0 waits forever (default); exceeded → 504
 * @param idleConnTimeout       an unused pooled backend connection is closed after this (default 90s)
 */
public record ForwardingTimeoutsConfig(@Nullable Duration dialTimeout, @Nullable Duration responseHeaderTimeout,
                                       @Nullable Duration idleConnTimeout) {

    public static final ForwardingTimeoutsConfig DEFAULT = new ForwardingTimeoutsConfig(null, null, null);

    public ForwardingTimeoutsConfig {
        dialTimeout = dialTimeout == null ? Duration.ofSeconds(30) : dialTimeout;
        responseHeaderTimeout = responseHeaderTimeout == null ? Duration.ZERO : responseHeaderTimeout;
        idleConnTimeout = idleConnTimeout == null ? Duration.ofSeconds(90) : idleConnTimeout;
        if (dialTimeout.isNegative() || dialTimeout.isZero()) {
            throw new InvalidValueException("dialTimeout", "must be positive");
        }
        if (responseHeaderTimeout.isNegative()) {
            throw new InvalidValueException("responseHeaderTimeout", "must not be negative");
        }
        if (idleConnTimeout.isNegative()) {
            throw new InvalidValueException("idleConnTimeout", "must not be negative");
        }
    }
}
