package dev.proxy.api;

import dev.proxy.config.decode.ConfigTree;
import dev.proxy.config.dynamic.ConfigurationMerger;
import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.ResourceError;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.WeightedService;
import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.Explainable;
import dev.proxy.provider.Provider;
import dev.proxy.provider.ProviderActivity;
import dev.proxy.rules.HttpRule;
import dev.proxy.server.EntryPoint;
import dev.proxy.server.InternalServices;
import dev.proxy.server.RoutingService;
import dev.proxy.server.balance.LoadBalancedService;
import dev.proxy.server.balance.ServerState;
import dev.proxy.server.balance.ServiceHandler;
import io.micronaut.core.annotation.Nullable;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Builds the API's views from the running state: the last configuration the data plane applied (with the routers,
 * services and middlewares it disabled and why), the health of every server, the entry points and the providers.
 * One {@link Snapshot} is built per request from one {@link RoutingService.Applied}, so a response never mixes two
 * configurations.
 */
final class ApiViews {

    private final InstallConfig install;
    private final RoutingService routing;
    private final Supplier<Map<String, EntryPoint>> entryPoints;
    private final ProviderActivity activity;
    private final Supplier<List<Provider>> providers;

    ApiViews(InstallConfig install, RoutingService routing, Supplier<Map<String, EntryPoint>> entryPoints,
             ProviderActivity activity, Supplier<List<Provider>> providers) {
        this.install = install;
        this.routing = routing;
        this.entryPoints = entryPoints;
        this.activity = activity;
        this.providers = providers;
    }

    /** Routers, services and middlewares of one configuration, by qualified name, in name order. */
    record Snapshot(Map<String, ApiJson.Router> routers, Map<String, ApiJson.Service> services,
                    Map<String, ApiJson.Middleware> middlewares, RoutingService.Applied applied) {
    }

    Snapshot snapshot() {
        RoutingService.Applied applied = routing.applied();
        Map<String, ApiJson.Router> routers = routers(applied);
        return new Snapshot(routers, services(applied), middlewares(applied), applied);
    }

    List<ApiJson.EntryPoint> entryPoints() {
        Map<String, EntryPoint> bound = entryPoints.get();
        List<ApiJson.EntryPoint> out = new ArrayList<>();
        install.entryPoints().forEach((name, ep) -> {
            EntryPoint running = bound.get(name);
            Integer port = running != null && running.isListening() ? running.port() : null;
            out.add(new ApiJson.EntryPoint(name, ep.address(), port, ConfigTree.of(ep.transport()),
                    ConfigTree.of(ep.forwardedHeaders()), ConfigTree.of(ep.http()), ConfigTree.of(ep.http2())));
        });
        return out;
    }

    ApiJson.Overview overview(Snapshot s) {
        var http = new ApiJson.HttpOverview(counts(s.routers().values()), counts(s.services().values()),
                counts(s.middlewares().values()));
        var features = new ApiJson.Features("", install.metrics().enabled() ? "Prometheus" : "",
                install.accessLog() != null);
        Instant at = s.applied().appliedAt();
        return new ApiJson.Overview(http, features, providerNames(), at == null ? null : at.toString(),
                s.applied().reloads());
    }

    ApiJson.Version version() {
        String v = ApiViews.class.getPackage().getImplementationVersion();
        Instant start = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        return new ApiJson.Version(v == null ? "dev" : v, "", start.toString(), Runtime.version().toString());
    }

    List<ApiJson.Provider> providers(Snapshot s) {
        Map<String, ProviderActivity.Status> stats = activity.snapshot();
        List<ApiJson.Provider> out = new ArrayList<>();
        for (String name : providerNames()) {
            ProviderActivity.Status st = stats.get(name);
            String status = st == null || st.lastError() == null ? ApiJson.ENABLED
                    : st.lastSuccess() != null ? ApiJson.WARNING : ApiJson.DISABLED;
            String suffix = ConfigurationMerger.SEPARATOR + name;
            out.add(new ApiJson.Provider(name, status, st == null ? 0 : st.refreshes(), st == null ? 0 : st.failures(),
                    st == null ? 0 : st.refreshTime().toNanos() / 1e9,
                    time(st == null ? null : st.lastSuccess()), time(st == null ? null : st.lastFailure()),
                    st == null ? null : st.lastError(), time(st == null ? null : st.lastPublished()),
                    count(s.applied().config().routers().keySet(), suffix),
                    count(s.applied().config().services().keySet(), suffix),
                    count(s.applied().config().middlewares().keySet(), suffix),
                    explainable(name).isPresent(), providerConfig(name)));
        }
        return out;
    }

    /** The provider's explanation, empty when no provider of that name explains itself. */
    Optional<List<ApiJson.ExplainedItem>> explain(String provider) {
        return explainable(provider).map(e -> e.explainItems().stream()
                .map(i -> new ApiJson.ExplainedItem(i.item(), i.exposed(), i.reason(), i.routers()))
                .toList());
    }

    private Optional<Explainable> explainable(String name) {
        return providers.get().stream().filter(p -> p instanceof Explainable && p.name().equals(name))
                .map(p -> (Explainable) p).findFirst();
    }

    /** Providers enabled, and any other that reported activity (a namespace instance), in name order. */
    private List<String> providerNames() {
        Set<String> names = new java.util.TreeSet<>(activity.snapshot().keySet());
        providers.get().forEach(p -> names.add(p.name()));
        return List.copyOf(names);
    }

    /** The provider's install section, secrets masked. */
    private @Nullable Map<String, Object> providerConfig(String name) {
        var p = install.providers();
        Record section = name.equals("file") ? p.file()
                : name.startsWith("registrycatalog") ? p.registryCatalog()
                : name.startsWith("clustertasks") ? p.clusterTasks() : null;
        return section == null ? null : ConfigTree.of(section);
    }

    // ---- routers ----

    private Map<String, ApiJson.Router> routers(RoutingService.Applied a) {
        Map<String, ApiJson.Router> out = new TreeMap<>();
        for (InternalServices.AutomaticRouter r : routing.internal().automaticRouters()) {
            out.put(r.name(), new ApiJson.Router(r.name(), "internal", ApiJson.ENABLED, null, List.of(r.entryPoint()),
                    List.of(), r.name(), r.rule(), r.priority(), List.of(r.entryPoint()), null));
        }
        a.config().routers().forEach((name, r) -> out.put(name, router(name, r, a)));
        for (ResourceError e : a.config().errors()) {
            if (e.kind() == ResourceError.Kind.ROUTER) {
                out.put(e.qualifiedName(), new ApiJson.Router(e.qualifiedName(), provider(e.qualifiedName()),
                        ApiJson.DISABLED, List.of(e.message()), null, null, null, null, null, null, null));
            }
        }
        return out;
    }

    private ApiJson.Router router(String name, Router r, RoutingService.Applied a) {
        String error = a.routerErrors().get(name);
        String status = ApiJson.ENABLED;
        List<String> errors = null;
        if (error != null) {
            status = ApiJson.DISABLED;
            errors = List.of(error);
        } else {
            ServiceHandler service = a.services().get(r.service());
            if (service != null && !service.available()) {
                status = ApiJson.WARNING;
                errors = List.of("the service " + r.service() + " has no server up: requests get 503");
            }
        }
        long priority = r.priority() != 0 ? r.priority() : HttpRule.priority(r.rule());
        return new ApiJson.Router(name, provider(name), status, errors, r.entryPoints(), r.middlewares(), r.service(),
                r.rule(), priority, using(r), r.tls() == null ? null : ConfigTree.of(r.tls()));
    }

    /** The entry points a router listens on: its own, or every one but the internal entry point. */
    private List<String> using(Router r) {
        if (!r.entryPoints().isEmpty()) {
            return r.entryPoints().stream().filter(install.entryPoints()::containsKey).toList();
        }
        return install.defaultEntryPoints();
    }

    // ---- services ----

    private Map<String, ApiJson.Service> services(RoutingService.Applied a) {
        MergedConfig config = a.config();
        Map<String, Set<String>> usedBy = serviceUsers(config);
        Map<String, ApiJson.Service> out = new TreeMap<>();
        routing.internal().enabled().keySet().forEach(name -> out.put(name, new ApiJson.Service(name, "internal",
                ApiJson.ENABLED, null, "internal", null, null, null, List.copyOf(usedBy.getOrDefault(name, Set.of())))));
        config.services().forEach((name, s) -> out.put(name, service(name, s, a,
                List.copyOf(usedBy.getOrDefault(name, Set.of())))));
        for (ResourceError e : config.errors()) {
            if (e.kind() == ResourceError.Kind.SERVICE) {
                out.put(e.qualifiedName(), new ApiJson.Service(e.qualifiedName(), provider(e.qualifiedName()),
                        ApiJson.DISABLED, List.of(e.message()), "", null, null, null, List.of()));
            }
        }
        return out;
    }

    private ApiJson.Service service(String name, Service s, RoutingService.Applied a, List<String> usedBy) {
        String status = ApiJson.ENABLED;
        List<String> errors = null;
        if (s.loadBalancer() != null) {
            Map<String, String> serverStatus = null;
            if (a.services().get(name) instanceof LoadBalancedService lb) {
                serverStatus = new LinkedHashMap<>();
                int down = 0;
                for (ServerState server : lb.servers()) {
                    boolean up = server.isUp();
                    down += up ? 0 : 1;
                    serverStatus.put(ConfigTree.withoutUserInfo(server.target().url()), up ? "UP" : "DOWN");
                }
                if (down > 0) {
                    status = ApiJson.WARNING;
                    errors = List.of(down == lb.servers().size() ? "no server is up"
                            : down + " of " + lb.servers().size() + " servers are down");
                }
            }
            return new ApiJson.Service(name, provider(name), status, errors, "loadbalancer",
                    ConfigTree.of(s.loadBalancer()), null, serverStatus, usedBy);
        }
        List<String> missing = new ArrayList<>();
        for (WeightedService member : s.weighted().services()) {
            if (!a.config().services().containsKey(member.name())
                    && !routing.internal().enabled().containsKey(member.name())) {
                missing.add("the service " + member.name() + " does not exist");
            }
        }
        if (!missing.isEmpty()) {
            status = ApiJson.DISABLED;
            errors = missing;
        } else if (a.services().get(name) != null && !a.services().get(name).available()) {
            status = ApiJson.WARNING;
            errors = List.of("no member service has a server up");
        }
        return new ApiJson.Service(name, provider(name), status, errors, "weighted", null,
                ConfigTree.of(s.weighted()), null, usedBy);
    }

    /** For each service, the routers that send to it, directly or through weighted services. */
    private static Map<String, Set<String>> serviceUsers(MergedConfig config) {
        Map<String, Set<String>> usedBy = new LinkedHashMap<>();
        config.routers().forEach((router, r) -> markUsed(r.service(), router, config, usedBy, new HashSet<>()));
        return usedBy;
    }

    private static void markUsed(String service, String router, MergedConfig config, Map<String, Set<String>> usedBy,
                                 Set<String> seen) {
        if (service.isEmpty() || !seen.add(service)) {
            return;
        }
        usedBy.computeIfAbsent(service, k -> new java.util.TreeSet<>()).add(router);
        Service s = config.services().get(service);
        if (s != null && s.weighted() != null) {
            s.weighted().services().forEach(m -> markUsed(m.name(), router, config, usedBy, seen));
        }
    }

    // ---- middlewares ----

    private Map<String, ApiJson.Middleware> middlewares(RoutingService.Applied a) {
        MergedConfig config = a.config();
        Map<String, Set<String>> usedBy = middlewareUsers(config);
        Map<String, ApiJson.Middleware> out = new TreeMap<>();
        config.middlewares().forEach((name, m) -> {
            Map.Entry<String, Object> typed = ConfigTree.of(m).entrySet().iterator().next();
            String error = a.middlewareErrors().get(name);
            @SuppressWarnings("unchecked")
            Map<String, Object> options = typed.getValue() instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
            out.put(name, new ApiJson.Middleware(name, provider(name), error == null ? ApiJson.ENABLED : ApiJson.DISABLED,
                    error == null ? null : List.of(error), typed.getKey().toLowerCase(java.util.Locale.ROOT), options,
                    List.copyOf(usedBy.getOrDefault(name, Set.of()))));
        });
        for (ResourceError e : config.errors()) {
            if (e.kind() == ResourceError.Kind.MIDDLEWARE) {
                out.put(e.qualifiedName(), new ApiJson.Middleware(e.qualifiedName(), provider(e.qualifiedName()),
                        ApiJson.DISABLED, List.of(e.message()), "", Map.of(), List.of()));
            }
        }
        return out;
    }

    /** For each middleware, the routers that use it: their own, their entry points' and inside chains. */
    private Map<String, Set<String>> middlewareUsers(MergedConfig config) {
        Map<String, Set<String>> usedBy = new LinkedHashMap<>();
        config.routers().forEach((router, r) -> {
            Set<String> names = new LinkedHashSet<>(r.middlewares());
            for (String ep : using(r)) {
                EntryPointConfig epc = install.entryPoints().get(ep);
                epc.http().middlewares().forEach(m -> names.add(ConfigurationMerger.qualify(m, provider(router))));
            }
            names.forEach(m -> markMiddleware(m, router, config, usedBy, new HashSet<>()));
        });
        return usedBy;
    }

    private static void markMiddleware(String name, String router, MergedConfig config, Map<String, Set<String>> usedBy,
                                       Set<String> seen) {
        if (!seen.add(name)) {
            return;
        }
        usedBy.computeIfAbsent(name, k -> new java.util.TreeSet<>()).add(router);
        Middleware m = config.middlewares().get(name);
        if (m != null && m.chain() != null) {
            m.chain().middlewares().forEach(member ->
                    markMiddleware(ConfigurationMerger.qualify(member.trim(), provider(name)), router, config, usedBy, seen));
        }
    }

    // ---- helpers ----

    static String provider(String qualifiedName) {
        int at = qualifiedName.lastIndexOf('@');
        return at < 0 ? "" : qualifiedName.substring(at + 1);
    }

    private static ApiJson.Counts counts(java.util.Collection<? extends ApiJson.Listed> items) {
        int warnings = 0;
        int errors = 0;
        for (ApiJson.Listed i : items) {
            warnings += i.status().equals(ApiJson.WARNING) ? 1 : 0;
            errors += i.status().equals(ApiJson.DISABLED) ? 1 : 0;
        }
        return new ApiJson.Counts(items.size(), warnings, errors);
    }

    private static int count(Set<String> names, String suffix) {
        return (int) names.stream().filter(n -> n.endsWith(suffix)).count();
    }

    private static @Nullable String time(@Nullable Instant t) {
        return t == null ? null : t.toString();
    }
}
