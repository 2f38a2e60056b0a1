package dev.proxy.config.dynamic;

import dev.proxy.config.dynamic.ResourceError.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Merges the latest configuration of every provider into one {@link MergedConfig}: each resource becomes
 * {@code name@provider}; each reference without {@code @} is qualified with the referring resource's provider;
 * references with {@code @} point across providers and are kept as written (for example {@code ping@internal},
 * which the data plane knows without any provider publishing it). Names cannot collide across providers because of
 * the suffix. Whether a reference resolves is the data plane's concern: it disables the router with a reason.
 *
 * <p>Pure: no I/O, no logging, same input → equal output.
 */
public final class ConfigurationMerger {

    /** Provider names are fixed lower-case words in code ({@code file}, {@code registrycatalog}, …). */
    private static final Pattern PROVIDER_NAME = Pattern.compile("[a-z][a-z0-9-]*");

    public static final String SEPARATOR = "@";

    private ConfigurationMerger() {
    }

    public static MergedConfig merge(Map<String, DynamicConfig> byProvider) {
        Map<String, Router> routers = new LinkedHashMap<>();
        Map<String, Service> services = new LinkedHashMap<>();
        Map<String, Middleware> middlewares = new LinkedHashMap<>();
        List<ResourceError> errors = new ArrayList<>();
        // Providers in name order, so that the order of errors does not depend on who published first.
        new TreeMap<>(byProvider).forEach((provider, config) -> {
            if (!PROVIDER_NAME.matcher(provider).matches()) {
                throw new IllegalArgumentException("provider names are lower-case words, not \"" + provider + "\"");
            }
            HttpConfig http = config.http();
            each(Kind.ROUTER, provider, http.routers(), errors,
                    (name, router) -> routers.put(name, qualify(router, provider)));
            each(Kind.SERVICE, provider, http.services(), errors,
                    (name, service) -> services.put(name, qualify(service, provider)));
            each(Kind.MIDDLEWARE, provider, http.middlewares(), errors, middlewares::put);
        });
        return new MergedConfig(routers, services, middlewares, errors);
    }

    /** Qualifies a reference: {@code web} within provider {@code file} is {@code web@file}; {@code a@b} stays. */
    public static String qualify(String reference, String provider) {
        if (reference.isEmpty() || reference.contains(SEPARATOR)) {
            return reference;
        }
        return reference + SEPARATOR + provider;
    }

    private static <V> void each(Kind kind, String provider, Map<String, V> resources, List<ResourceError> errors,
                                 BiConsumer<String, V> accept) {
        resources.forEach((name, value) -> {
            String qualified = name + SEPARATOR + provider;
            if (name.isBlank()) {
                errors.add(new ResourceError(kind, qualified, "a " + kind.word() + " needs a name"));
            } else if (name.contains(SEPARATOR)) {
                // A provider cannot define a resource in another provider's namespace (say a fake ping@internal).
                errors.add(new ResourceError(kind, qualified,
                        "a name defined by a provider must not contain \"@\"; the provider suffix is added for it"));
            } else {
                accept.accept(qualified, value);
            }
        });
    }

    private static Router qualify(Router r, String provider) {
        List<String> middlewares = r.middlewares().stream().map(m -> qualify(m.trim(), provider)).toList();
        return new Router(r.entryPoints(), middlewares, qualify(r.service(), provider), r.rule(), r.priority(), r.tls());
    }

    private static Service qualify(Service s, String provider) {
        if (s.weighted() == null) {
            return s;
        }
        List<WeightedService> members = s.weighted().services().stream()
                .map(m -> new WeightedService(qualify(m.name().trim(), provider), m.weight()))
                .toList();
        return new Service(null, new Weighted(members, s.weighted().sticky()));
    }
}
