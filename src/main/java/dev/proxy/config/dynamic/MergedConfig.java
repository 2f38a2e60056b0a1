package dev.proxy.config.dynamic;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every provider's dynamic configuration merged into one, the input of the data plane. Every name is qualified
 * {@code name@provider}, and so is every reference inside (a router's service and middlewares, a weighted service's
 * members), so that the data plane never needs to know which provider a resource came from.
 *
 * @param routers     by qualified name
 * @param services    by qualified name
 * @param middlewares by qualified name
 * @param tls         every provider's certificates; TLS options by qualified name ({@code default} unqualified);
 *                    the {@code default} store
 * @param errors      resources left out while merging, and why
 */
public record MergedConfig(Map<String, Router> routers, Map<String, Service> services,
                           Map<String, Middleware> middlewares, TlsConfig tls, List<ResourceError> errors) {

    public static final MergedConfig EMPTY = new MergedConfig(Map.of(), Map.of(), Map.of(), List.of());

    public MergedConfig {
        // Sorted so that logs, the API and tests see a stable order whatever order the providers arrived in.
        routers = Collections.unmodifiableMap(new TreeMap<>(routers));
        services = Collections.unmodifiableMap(new TreeMap<>(services));
        middlewares = Collections.unmodifiableMap(new TreeMap<>(middlewares));
        tls = new TlsConfig(tls.certificates(), new TreeMap<>(tls.options()), tls.stores());
        errors = List.copyOf(errors);
    }

    /** Without TLS configuration. */
    public MergedConfig(Map<String, Router> routers, Map<String, Service> services,
                        Map<String, Middleware> middlewares, List<ResourceError> errors) {
        this(routers, services, middlewares, TlsConfig.EMPTY, errors);
    }
}
