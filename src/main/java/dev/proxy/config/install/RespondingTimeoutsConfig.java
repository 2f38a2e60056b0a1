package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * Timeouts towards clients on one entry point ({@code entryPoints.<name>.transport.respondingTimeouts}).
 *
 * @param readTimeout  the whole request (headers and body) must arrive within this time; 0 disables (default 60s)
 * @param writeTimeout the response must be written within this time; 0 disables (default 0s)
 * @param idleTimeout  a keep-alive connection without a request is closed after this time (default 180s)
 */
public record RespondingTimeoutsConfig(@Nullable Duration readTimeout, @Nullable Duration writeTimeout,
                                       @Nullable Duration idleTimeout) {

    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ZERO;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(180);
    public static final RespondingTimeoutsConfig DEFAULT = new RespondingTimeoutsConfig(null, null, null);

    public RespondingTimeoutsConfig {
        readTimeout = readTimeout == null ? DEFAULT_READ_TIMEOUT : readTimeout;
        writeTimeout = writeTimeout == null ? DEFAULT_WRITE_TIMEOUT : writeTimeout;
        idleTimeout = idleTimeout == null ? DEFAULT_IDLE_TIMEOUT : idleTimeout;
        if (readTimeout.isNegative()) {
            throw new InvalidValueException("readTimeout", "must not be negative");
        }
        if (writeTimeout.isNegative()) {
            throw new InvalidValueException("writeTimeout", "must not be negative");
        }
        if (idleTimeout.isNegative()) {
            throw new InvalidValueException("idleTimeout", "must not be negative");
        }
    }
}
