package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code api}: the JSON API ({@code api@internal}) and the dashboard ({@code dashboard@internal}). Present (even
 * empty, {@code --api}) means the internal services exist; a router must still send traffic to them unless
 * {@code insecure} routes them automatically.
 *
 * @param insecure  route {@code <basePath>api} and {@code <basePath>dashboard/} automatically on the internal
 *                  {@code proxy} entry point (created on :8080 when missing); never on any other entry point
 * @param dashboard serve the dashboard (default true)
 * @param basePath  path prefix of both (default {@code /}), for a proxy that publishes them under a sub-path
 */
public record ApiConfig(@Nullable Boolean insecure, @Nullable Boolean dashboard, @Nullable String basePath) {

    public static final String DEFAULT_BASE_PATH = "/";

    public ApiConfig {
        insecure = insecure != null && insecure;
        dashboard = dashboard == null || dashboard;
        basePath = basePath == null || basePath.isBlank() ? DEFAULT_BASE_PATH : basePath.trim();
        if (!basePath.startsWith("/") || basePath.contains("?") || basePath.contains("#") || basePath.contains("`")) {
            throw new InvalidValueException("basePath", "must be a path starting with /");
        }
        if (!basePath.endsWith("/")) {
            basePath = basePath + "/";
        }
    }

    /** The API's path prefix, {@code /api} by default. */
    public String apiPath() {
        return basePath + "api";
    }

    /** The dashboard's path prefix, {@code /dashboard} by default. */
    public String dashboardPath() {
        return basePath + "dashboard";
    }
}
