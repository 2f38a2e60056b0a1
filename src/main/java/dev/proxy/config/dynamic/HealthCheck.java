package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.Map;

/**
 * {@code loadBalancer.healthCheck}: probes each server; any 2xx/3xx (or exactly {@code status}) is healthy.
 *
 * @param path     probe path (required)
 * @param interval between probes (default 30s)
 * @param timeout  per probe (default 5s)
 * @param scheme   override the server's scheme
 * @param hostname Host header of the probe
 * @param port     override the server's port
 * @param headers  extra request headers
 * @param status   the only healthy status, when set
 * @param method   probe method (default GET)
 */
public record HealthCheck(@Nullable String path, @Nullable Duration interval, @Nullable Duration timeout,
                          @Nullable String scheme, @Nullable String hostname, @Nullable Integer port,
                          @Nullable Map<String, String> headers, @Nullable Integer status, @Nullable String method) {

    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public HealthCheck {
        if (path == null || path.isBlank()) {
            throw new InvalidValueException("path", "a health check needs a path");
        }
        if (!path.startsWith("/")) {
            throw new InvalidValueException("path", "must start with /");
        }
        interval = interval == null ? DEFAULT_INTERVAL : interval;
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (interval.isNegative() || interval.isZero()) {
            throw new InvalidValueException("interval", "must be positive");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new InvalidValueException("timeout", "must be positive");
        }
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        method = method == null || method.isBlank() ? "GET" : method.trim().toUpperCase(java.util.Locale.ROOT);
        if (port != null && (port < 1 || port > 65535)) {
            throw new InvalidValueException("port", "must be between 1 and 65535");
        }
        if (status != null && (status < 100 || status > 599)) {
            throw new InvalidValueException("status", "must be an HTTP status");
        }
    }
}
