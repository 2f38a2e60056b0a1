package dev.proxy.server;

import dev.proxy.config.install.ApiConfig;
import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.PingConfig;
import dev.proxy.config.install.PrometheusConfig;
import dev.proxy.ping.PingHandler;
import dev.proxy.rules.HttpRule;
import io.micronaut.context.BeanProvider;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The internal services ({@code name@internal}) and their automatic routers, decided by the install configuration:
 *
 * <ul>
 * <li>{@code ping@internal} with {@code ping}: {@code Path(`/ping`)} on {@code ping.entryPoint}, unless
 *     {@code ping.manualRouting};
 * <li>{@code api@internal} and {@code dashboard@internal} with {@code api}: routed only with {@code api.insecure}, and
 *     then only on the internal {@code proxy} entry point ({@code PathPrefix(`/api`)}, {@code PathPrefix(`/dashboard`)}
 *     and {@code /} redirecting to it) — on any other entry point only a user's router can expose them;
 * <li>{@code prometheus@internal} with {@code metrics.prometheus}: {@code PathPrefix(`/metrics`)} on its entry point,
 *     unless {@code manualRouting}.
 * </ul>
 *
 * Internal routers outrank every user router, as in Traefik (ping, then api, then dashboard). Handlers other than
 * ping are looked up on the first request that needs one, so a proxy whose API is never called never builds it.
 */
@Singleton
public final class InternalServices {

    public static final String PING = "ping@internal";
    public static final String API = "api@internal";
    public static final String DASHBOARD = "dashboard@internal";
    public static final String PROMETHEUS = "prometheus@internal";

    /**
     * An automatic internal router.
     *
     * @param name       router name, the same as its service's
     * @param entryPoint where it listens
     * @param rule       its rule, as the API shows it
     * @param priority   above any user router
     */
    public record AutomaticRouter(String name, String entryPoint, String rule, long priority) {
    }

    private final InstallConfig install;
    private final Map<String, RouteHandler> handlers = new LinkedHashMap<>();
    private final Map<String, String> disabled = new LinkedHashMap<>();
    private final List<AutomaticRouter> automatic = new ArrayList<>();

    @Inject
    public InternalServices(InstallConfig install, PingHandler ping, BeanProvider<InternalService> others) {
        this(install, ping, (Supplier<List<InternalService>>) () -> others.stream().toList());
    }

    /**
     * Wired by hand (tests).
     *
     * @param others every other internal service handler that exists (asked once, on the first request to one)
     */
    public static InternalServices of(InstallConfig install, @Nullable PingHandler ping,
                                      Supplier<? extends Collection<? extends RouteHandler>> others) {
        return new InternalServices(install, ping, others);
    }

    private InternalServices(InstallConfig install, @Nullable PingHandler ping,
                             Supplier<? extends Collection<? extends RouteHandler>> others) {
        this.install = install;
        Lookup lookup = new Lookup(others);
        PingConfig pc = install.ping();
        if (pc != null && ping != null) {
            handlers.put(PING, ping);
            if (!pc.manualRouting()) {
                automatic.add(new AutomaticRouter(PING, pc.entryPoint(), "Path(`/ping`)", Long.MAX_VALUE));
            }
        } else {
            disabled.put(PING, "ping is not enabled");
        }
        ApiConfig api = install.api();
        if (api != null) {
            handlers.put(API, lookup.handler(API));
            if (api.insecure()) {
                automatic.add(new AutomaticRouter(API, InstallConfig.INTERNAL_ENTRY_POINT,
                        "PathPrefix(`" + api.apiPath() + "`)", Long.MAX_VALUE - 1));
            }
            if (api.dashboard()) {
                handlers.put(DASHBOARD, lookup.handler(DASHBOARD));
                if (api.insecure()) {
                    automatic.add(new AutomaticRouter(DASHBOARD, InstallConfig.INTERNAL_ENTRY_POINT,
                            "PathPrefix(`" + api.dashboardPath() + "`) || Path(`" + api.basePath() + "`)",
                            Long.MAX_VALUE - 2));
                }
            } else {
                disabled.put(DASHBOARD, "the dashboard is not enabled (api.dashboard=false)");
            }
        } else {
            disabled.put(API, "the api is not enabled");
            disabled.put(DASHBOARD, "the api is not enabled");
        }
        PrometheusConfig prometheus = install.metrics().prometheus();
        if (prometheus != null) {
            handlers.put(PROMETHEUS, lookup.handler(PROMETHEUS));
            if (!prometheus.manualRouting()) {
                automatic.add(new AutomaticRouter(PROMETHEUS, prometheus.entryPoint(), "PathPrefix(`/metrics`)",
                        Long.MAX_VALUE));
            }
        } else {
            disabled.put(PROMETHEUS, "metrics.prometheus is not enabled");
        }
    }

    /**
     * The automatic internal routers, compiled, for a routing snapshot. On an entry point with {@code http.tls} they
     * are TLS-only like every router there (Traefik's entry-point model applies to internal routers too).
     */
    public List<Map.Entry<String, Route>> automaticRoutes() {
        List<Map.Entry<String, Route>> routes = new ArrayList<>();
        for (AutomaticRouter r : automatic) {
            HttpRule rule = HttpRule.compile(r.rule());
            EntryPointConfig ep = install.entryPoints().get(r.entryPoint());
            boolean tls = ep != null && ep.http().tls() != null;
            routes.add(Map.entry(r.entryPoint(),
                    new Route(r.name(), rule::matches, r.priority(), handlers.get(r.name()), tls)));
        }
        return routes;
    }

    public List<AutomaticRouter> automaticRouters() {
        return List.copyOf(automatic);
    }

    /** The enabled internal services by name. */
    public Map<String, RouteHandler> enabled() {
        return Map.copyOf(handlers);
    }

    public static boolean isInternal(String service) {
        return service.endsWith("@internal");
    }

    /**
     * The handler a user's router may send to.
     *
     * @throws IllegalArgumentException when there is no such internal service, or it is not enabled
     */
    public RouteHandler resolve(String name) {
        RouteHandler h = handlers.get(name);
        if (h != null) {
            return h;
        }
        String reason = disabled.get(name);
        throw new IllegalArgumentException("service " + name + ": "
                + (reason != null ? reason : "there is no such internal service"));
    }

    /** Finds the handler beans once, when the first of them is needed. */
    private static final class Lookup {
        private final Supplier<? extends Collection<? extends RouteHandler>> all;
        private volatile Map<String, RouteHandler> found;

        Lookup(Supplier<? extends Collection<? extends RouteHandler>> all) {
            this.all = all;
        }

        RouteHandler handler(String name) {
            return new RouteHandler() {
                private volatile RouteHandler target;

                @Override
                public void handle(Exchange exchange) {
                    RouteHandler t = target;
                    if (t == null) {
                        t = target = find(name);
                    }
                    t.handle(exchange);
                }

                @Override
                public String name() {
                    return name;
                }
            };
        }

        private synchronized RouteHandler find(String name) {
            if (found == null) {
                Map<String, RouteHandler> m = new LinkedHashMap<>();
                all.get().forEach(h -> m.put(h.name(), h));
                found = m;
            }
            RouteHandler h = found.get(name);
            if (h == null) {
                throw new IllegalStateException("internal service " + name + " is enabled but has no handler");
            }
            return h;
        }
    }
}
