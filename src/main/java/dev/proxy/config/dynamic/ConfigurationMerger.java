package dev.proxy.config.dynamic;

import dev.proxy.config.dynamic.ResourceError.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * <p>TLS, as in Traefik: certificates are global, the union of every provider's (each distinct one once); TLS
 * options are named like the other resources ({@code strict@file}) except {@code default}, which stays global, as
 * does the {@code default} store — and when more than one provider defines one of these, every definition is
 * dropped with an error (none of them is more right than the others), so the built-in defaults apply.
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
        Set<TlsCertificate> certificates = new LinkedHashSet<>();
        Map<String, TlsOptions> tlsOptions = new LinkedHashMap<>();
        Map<String, List<String>> globalOptions = new TreeMap<>();
        Map<String, TlsStore> stores = new LinkedHashMap<>();
        Map<String, List<String>> storesBy = new TreeMap<>();
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
            TlsConfig tls = config.tls();
            certificates.addAll(tls.certificates());
            tls.options().forEach((name, options) -> {
                if (name.equals(TlsOptions.DEFAULT_NAME)) {
                    globalOptions.computeIfAbsent(name, n -> new ArrayList<>()).add(provider);
                    tlsOptions.put(name, options);
                }
            });
            each(Kind.TLS_OPTIONS, provider, withoutDefault(tls.options()), errors, tlsOptions::put);
            tls.stores().forEach((name, store) -> {
                storesBy.computeIfAbsent(name, n -> new ArrayList<>()).add(provider);
                stores.put(name, store);
            });
        });
        dropSharedDefinitions(Kind.TLS_OPTIONS, globalOptions, tlsOptions, errors);
        dropSharedDefinitions(Kind.TLS_STORE, storesBy, stores, errors);
        return new MergedConfig(routers, services, middlewares,
                new TlsConfig(List.copyOf(certificates), tlsOptions, stores), errors);
    }

    private static <V> Map<String, V> withoutDefault(Map<String, V> options) {
        Map<String, V> rest = new LinkedHashMap<>(options);
        rest.remove(TlsOptions.DEFAULT_NAME);
        return rest;
    }

    /** Global names defined by several providers: every definition is dropped, with one error naming them all. */
    private static <V> void dropSharedDefinitions(Kind kind, Map<String, List<String>> definedBy, Map<String, V> values,
                                                  List<ResourceError> errors) {
        definedBy.forEach((name, providers) -> {
            if (providers.size() > 1) {
                values.remove(name);
                errors.add(new ResourceError(kind, name, "defined by several providers (" + String.join(", ", providers)
                        + "); every definition is ignored"));
            }
        });
    }

    /** A router's TLS options reference, qualified like other references; {@code default} stays global. */
    public static String qualifyOptions(String options, String provider) {
        return options == null || options.equals(TlsOptions.DEFAULT_NAME) ? options : qualify(options, provider);
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
        RouterTls tls = r.tls() == null ? null
                : new RouterTls(r.tls().certResolver(), qualifyOptions(r.tls().options(), provider), r.tls().domains());
        return new Router(r.entryPoints(), middlewares, qualify(r.service(), provider), r.rule(), r.priority(), tls);
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
