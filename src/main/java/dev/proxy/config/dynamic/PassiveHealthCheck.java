package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * {@code loadBalancer.passiveHealthCheck}: a server that fails {@code maxFailedAttempts} requests within
 * {@code failureWindow} (unreachable, closed before answering, timed out, or a 5xx answer) leaves the rotation for
 * {@code failureWindow}. With an active {@code healthCheck} too, only the active check brings it back.
 */
public record PassiveHealthCheck(@Nullable Duration failureWindow, @Nullable Integer maxFailedAttempts) {

    public PassiveHealthCheck {
        failureWindow = failureWindow == null ? Duration.ofSeconds(10) : failureWindow;
        maxFailedAttempts = maxFailedAttempts == null ? 1 : maxFailedAttempts;
        if (failureWindow.isNegative() || failureWindow.isZero()) {
            throw new InvalidValueException("failureWindow", "must be positive");
        }
        if (maxFailedAttempts < 1) {
            throw new InvalidValueException("maxFailedAttempts", "must be at least 1");
        }
    }
}
