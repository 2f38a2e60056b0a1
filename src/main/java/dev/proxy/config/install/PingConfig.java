package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code ping}: the health endpoint. Present (even empty, {@code ping: {}} or {@code --ping}) means enabled.
 *
 * @param entryPoint            entry point that serves {@code /ping} (default {@code proxy}, created on :8080 if missing)
 * @param manualRouting         when true no automatic router is made; route to {@code ping@internal} yourself
 * @param terminatingStatusCode status answered from SIGTERM until shutdown ends (default 503)
 */
public record PingConfig(@Nullable String entryPoint, @Nullable Boolean manualRouting,
                         @Nullable Integer terminatingStatusCode) {

    public static final String DEFAULT_ENTRY_POINT = "proxy";
    public static final int DEFAULT_TERMINATING_STATUS_CODE = 503;

    public PingConfig {
        entryPoint = entryPoint == null || entryPoint.isBlank() ? DEFAULT_ENTRY_POINT : entryPoint;
        manualRouting = manualRouting != null && manualRouting;
        terminatingStatusCode = terminatingStatusCode == null ? DEFAULT_TERMINATING_STATUS_CODE : terminatingStatusCode;
        if (terminatingStatusCode < 100 || terminatingStatusCode > 599) {
            throw new InvalidValueException("terminatingStatusCode", "must be an HTTP status between 100 and 599");
        }
    }
}
