package dev.proxy.config.label;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.Weighted;
import dev.proxy.config.dynamic.WeightedService;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Merges the configurations of many items of one provider into one (Traefik's provider merge), in the order given:
 * <ul>
 *   <li><b>services</b> of the same name are one load balancer: their servers are concatenated (a URL given twice is
 *       kept once) when every other load-balancer setting is equal; otherwise the service is left out entirely;</li>
 *   <li><b>routers</b> and <b>middlewares</b> of the same name must be equal; otherwise they are left out entirely;</li>
 *   <li><b>canary</b> (beyond Traefik, which drops such a router): when items define the same router with different
 *       services, the routers are otherwise equal, and every one of those services has
 *       {@code loadbalancer.weight}, the router is kept and sends to a new weighted service
 *       {@code <router>-canary} that splits between those services by their weights (first seen first). Items of
 *       {@code app-v1} (weight 90) and {@code app-v2} (weight 10) both labelled with router {@code app} thus give a
 *       90/10 split. If a service named {@code <router>-canary} already exists, the router is left out.</li>
 * </ul>
 * Each resource left out comes with a {@link Problem} naming it and the items that defined it.
 */
public final class ItemMerger {

    private ItemMerger() {
    }

    /** A definition of a named resource and the item it came from. */
    private record Definition<T>(String origin, T value) {
    }

    public static BuildResult merge(List<ItemConfig> items) {
        Map<String, List<Definition<Router>>> routers = collect(items, HttpConfig::routers);
        Map<String, List<Definition<Service>>> services = collect(items, HttpConfig::services);
        Map<String, List<Definition<Middleware>>> middlewares = collect(items, HttpConfig::middlewares);
        List<Problem> problems = new ArrayList<>();

        Map<String, Service> mergedServices = new LinkedHashMap<>();
        services.forEach((name, defs) -> {
            Service merged = mergeService(defs);
            if (merged == null) {
                problems.add(conflict("service", name, defs, ""));
            } else {
                mergedServices.put(name, merged);
            }
        });
        Map<String, Middleware> mergedMiddlewares = new LinkedHashMap<>();
        middlewares.forEach((name, defs) -> {
            if (allEqual(defs, v -> v)) {
                mergedMiddlewares.put(name, defs.get(0).value());
            } else {
                problems.add(conflict("middleware", name, defs, ""));
            }
        });
        Map<String, Router> mergedRouters = new LinkedHashMap<>();
        Map<String, Service> canaries = new LinkedHashMap<>();
        routers.forEach((name, defs) -> {
            if (allEqual(defs, v -> v)) {
                mergedRouters.put(name, defs.get(0).value());
                return;
            }
            String hint = canary(name, defs, mergedServices, canaries);
            if (hint == null) {
                Router first = defs.get(0).value();
                mergedRouters.put(name, ItemDefaults.withRuleAndService(first, first.rule(), name + "-canary"));
            } else {
                problems.add(conflict("router", name, defs, hint));
            }
        });
        mergedServices.putAll(canaries);
        return new BuildResult(new DynamicConfig(new HttpConfig(mergedRouters, mergedServices, mergedMiddlewares)), problems);
    }

    private static <T> Map<String, List<Definition<T>>> collect(List<ItemConfig> items,
                                                                Function<HttpConfig, Map<String, T>> kind) {
        Map<String, List<Definition<T>>> out = new LinkedHashMap<>();
        for (ItemConfig item : items) {
            kind.apply(item.config().http()).forEach((name, value) ->
                    out.computeIfAbsent(name, k -> new ArrayList<>()).add(new Definition<>(item.origin(), value)));
        }
        return out;
    }

    /** The merged service, or null when the definitions conflict. */
    private static @Nullable Service mergeService(List<Definition<Service>> defs) {
        if (defs.get(0).value().loadBalancer() == null) {
            return allEqual(defs, v -> v) ? defs.get(0).value() : null;
        }
        // Equal apart from the servers: the settings must agree, the servers are the union.
        if (!allEqual(defs, s -> s.loadBalancer() == null ? s : ItemDefaults.withServers(s.loadBalancer(), List.of()))) {
            return null;
        }
        Map<String, Server> byUrl = new LinkedHashMap<>();
        List<Server> servers = new ArrayList<>();
        for (Definition<Service> d : defs) {
            for (Server s : d.value().loadBalancer().servers()) {
                if (s.url() == null || byUrl.putIfAbsent(s.url(), s) == null) {
                    servers.add(s);
                }
            }
        }
        LoadBalancer lb = defs.get(0).value().loadBalancer();
        return new Service(ItemDefaults.withServers(lb, servers), null);
    }

    /**
     * Makes the canary split for a router defined differently by several items, or says why it cannot.
     *
     * @return null when the split was added to {@code canaries}; otherwise a hint for the conflict message
     */
    private static @Nullable String canary(String router, List<Definition<Router>> defs, Map<String, Service> services,
                                 Map<String, Service> canaries) {
        if (!allEqual(defs, r -> ItemDefaults.withRuleAndService(r, r.rule(), ""))) {
            return "";
        }
        Set<String> members = new LinkedHashSet<>();
        defs.forEach(d -> members.add(d.value().service()));
        List<WeightedService> split = new ArrayList<>();
        for (String member : members) {
            Service s = services.get(member);
            if (s == null || s.loadBalancer() == null || s.loadBalancer().weight() == null) {
                return "; a canary split needs loadbalancer.weight on every service (missing on " + member + ")";
            }
            split.add(new WeightedService(member, s.loadBalancer().weight()));
        }
        String name = router + "-canary";
        if (services.containsKey(name)) {
            return "; the canary service " + name + " cannot be made: a service has that name";
        }
        canaries.put(name, new Service(null, new Weighted(split, null)));
        return null;
    }

    private static <T> boolean allEqual(List<Definition<T>> defs, Function<? super T, ?> comparable) {
        Object first = comparable.apply(defs.get(0).value());
        return defs.stream().allMatch(d -> comparable.apply(d.value()).equals(first));
    }

    private static <T> Problem conflict(String kind, String name, List<Definition<T>> defs, String hint) {
        Set<String> origins = new LinkedHashSet<>();
        defs.forEach(d -> origins.add(d.origin()));
        return new Problem(kind + " " + name, List.copyOf(origins), kind + " " + name
                + " defined multiple times with different configurations (origins " + String.join(", ", origins) + ")" + hint);
    }
}
