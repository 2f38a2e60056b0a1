package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code providers.registryCatalog}: services discovered from the Consul catalog through their tags. Field meanings
 * and defaults follow the seed specification (and Traefik's Consul Catalog provider).
 */
public record RegistryCatalogConfig(
        @Nullable RegistryEndpointConfig endpoint,
        @Nullable String prefix,
        @Nullable Duration refreshInterval,
        @Nullable Boolean watch,
        @Nullable Boolean exposedByDefault,
        @Nullable String defaultRule,
        @Nullable String constraints,
        @Nullable Boolean requireConsistent,
        @Nullable Boolean stale,
        @Nullable Boolean cache,
        @Nullable Boolean connectAware,
        @Nullable Boolean connectByDefault,
        @Nullable String serviceName,
        @Nullable List<String> namespaces,
        @Nullable List<String> strictChecks,
        @Nullable SelfRegistrationConfig selfRegistration) {

    public static final String DEFAULT_PREFIX = "proxy";
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(15);
    public static final String DEFAULT_RULE = "Host(`{{ normalize .Name }}`)";
    public static final String DEFAULT_SERVICE_NAME = "proxy";
    public static final List<String> DEFAULT_STRICT_CHECKS = List.of("passing", "warning");
    private static final Set<String> CHECK_STATUSES = Set.of("passing", "warning", "critical", "maintenance", "any");

    public RegistryCatalogConfig {
        endpoint = endpoint == null ? RegistryEndpointConfig.DEFAULT : endpoint;
        prefix = prefix == null || prefix.isBlank() ? DEFAULT_PREFIX : prefix;
        refreshInterval = refreshInterval == null ? DEFAULT_REFRESH_INTERVAL : refreshInterval;
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new InvalidValueException("refreshInterval", "must be positive");
        }
        watch = watch != null && watch;
        exposedByDefault = exposedByDefault == null || exposedByDefault;
        defaultRule = defaultRule == null || defaultRule.isBlank() ? DEFAULT_RULE : defaultRule;
        constraints = constraints == null ? "" : constraints;
        requireConsistent = requireConsistent != null && requireConsistent;
        stale = stale != null && stale;
        cache = cache != null && cache;
        connectAware = connectAware != null && connectAware;
        connectByDefault = connectByDefault != null && connectByDefault;
        serviceName = serviceName == null || serviceName.isBlank() ? DEFAULT_SERVICE_NAME : serviceName;
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        strictChecks = strictChecks == null ? DEFAULT_STRICT_CHECKS
                : strictChecks.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        for (String status : strictChecks) {
            if (!CHECK_STATUSES.contains(status)) {
                throw new InvalidValueException("strictChecks",
                        "unknown check status \"" + status + "\" (expected passing, warning, critical, maintenance or any)");
            }
        }
        if (requireConsistent && stale) {
            throw new InvalidValueException("stale", "requireConsistent and stale cannot both be true");
        }
    }
}
