package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * Graceful shutdown of one entry point ({@code entryPoints.<name>.transport.lifeCycle}).
 *
 * @param requestAcceptGraceTimeout how long the entry point keeps accepting new requests after SIGTERM (default 0s)
 * @param graceTimeOut              how long in-flight requests may take to complete before connections are closed (10s)
 */
public record LifeCycleConfig(@Nullable Duration requestAcceptGraceTimeout, @Nullable Duration graceTimeOut) {

    public static final Duration DEFAULT_REQUEST_ACCEPT_GRACE_TIMEOUT = Duration.ZERO;
    public static final Duration DEFAULT_GRACE_TIME_OUT = Duration.ofSeconds(10);
    public static final LifeCycleConfig DEFAULT = new LifeCycleConfig(null, null);

    public LifeCycleConfig {
        requestAcceptGraceTimeout = requestAcceptGraceTimeout == null ? DEFAULT_REQUEST_ACCEPT_GRACE_TIMEOUT : requestAcceptGraceTimeout;
        graceTimeOut = graceTimeOut == null ? DEFAULT_GRACE_TIME_OUT : graceTimeOut;
        if (requestAcceptGraceTimeout.isNegative()) {
            throw new InvalidValueException("requestAcceptGraceTimeout", "must not be negative");
        }
        if (graceTimeOut.isNegative()) {
            throw new InvalidValueException("graceTimeOut", "must not be negative");
        }
    }
}
