package dev.proxy.server;

import dev.proxy.config.dynamic.ConfigurationMerger;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.RouterTls;
import dev.proxy.config.dynamic.TlsOptions;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.WeightedService;
import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.EntryPointTlsConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.rules.HttpRule;
import dev.proxy.rules.IpRanges;
import dev.proxy.rules.RuleSyntaxException;
import dev.proxy.server.balance.LoadBalancedService;
import dev.proxy.server.balance.ServiceHandler;
import dev.proxy.server.balance.WeightedServiceHandler;
import dev.proxy.server.forward.Forwarder;
import dev.proxy.tls.TlsCompiler;
import dev.proxy.tls.acme.CertificateResolvers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Compiles a merged dynamic configuration (qualified names) into the routes of a {@link RoutingSnapshot}: rules,
 * middleware chains, services, and for TLS routers their options and certificate names. A router that cannot be
 * built (bad rule, unknown service, middleware or TLS options, invalid middleware configuration) is disabled with a
 * reason; the others serve. Services whose configuration did not change keep
 * their handler (and with it health state and round-robin position).
 */
final class RoutingCompiler {

    private final InstallConfig install;
    private final Forwarder forwarder;
    private final InternalServices internal;
    private final Middlewares middlewares;
    private final CertificateResolvers resolvers;
    private final Map<String, Predicate<Exchange>> trustByEntryPoint = new HashMap<>();
    /**
     * The rules of the previous compile, by rule text: a rebuild parses only the rules it has not seen (a compiled
     * rule is immutable, so sharing it between snapshots is safe). Touched only by {@link #compile}, which the
     * routing service calls under its lock.
     */
    private Map<String, HttpRule> rules = Map.of();

    /**
     * The result: the routes, the service handlers they use (for reuse next time), the problems found, which TLS
     * options each host name gets on each entry point, and the names each certificate resolver must cover.
     *
     * @param errors           disabled routers and why
     * @param middlewareErrors middlewares that could not be built and why
     */
    record Result(List<Map.Entry<String, Route>> routes, Map<String, CompiledService> services,
                  Map<String, String> errors, Map<String, String> middlewareErrors,
                  Map<String, Map<String, String>> optionsByHost, Map<String, Set<List<String>>> certificatesWanted,
                  List<String> warnings) {
    }

    /** A service handler and the configuration it was built from. */
    record CompiledService(Service config, ServiceHandler handler) {
    }

    RoutingCompiler(InstallConfig install, Forwarder forwarder, InternalServices internal, Middlewares middlewares,
                    CertificateResolvers resolvers) {
        this.install = install;
        this.resolvers = resolvers;
        this.forwarder = forwarder;
        this.internal = internal;
        this.middlewares = middlewares;
        install.entryPoints().forEach((name, ep) -> trustByEntryPoint.put(name, trust(ep)));
    }

    Result compile(Map<String, Router> routers, Map<String, Service> services, Map<String, Middleware> middlewares,
                   TlsCompiler.Options tlsOptions, Map<String, CompiledService> previous) {
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, CompiledService> built = new LinkedHashMap<>();
        TlsNames tlsNames = new TlsNames();
        Middlewares.Generation builtMiddlewares = this.middlewares.generation(middlewares, this::trusted);
        List<Map.Entry<String, Route>> routes = new ArrayList<>(RoutingService.internalRoutes(internal, resolvers));
        Map<String, HttpRule> compiledRules = new HashMap<>();
        for (Map.Entry<String, Router> e : routers.entrySet()) {
            String name = e.getKey();
            Router router = e.getValue();
            try {
                HttpRule rule = compiledRules.get(router.rule());
                if (rule == null) {
                    rule = rules.get(router.rule());
                    if (rule == null) {
                        rule = compileRule(router.rule());
                    }
                    compiledRules.put(router.rule(), rule);
                }
                RouteHandler service = serviceHandler(router.service(), services, previous, built, new HashSet<>());
                long priority = router.priority() != 0 ? router.priority() : rule.defaultPriority();
                List<Map.Entry<String, Route>> own = new ArrayList<>();
                TlsNames ownNames = new TlsNames();
                for (String ep : entryPointsOf(router)) {
                    RouterTls tls = effectiveTls(name, router, ep);
                    if (tls != null) {
                        ownNames.add(name, ep, tls, options(tls, tlsOptions), rule.hosts(), this::resolverExists);
                    }
                    // The entry point's middlewares come first, then the router's own (as Traefik prepends them).
                    List<String> chain = new ArrayList<>(install.entryPoints().get(ep).http().middlewares());
                    chain.addAll(router.middlewares());
                    RouteHandler handler = builtMiddlewares.wrap(name, chain, service);
                    HttpRule matcher = rule;
                own.add(Map.entry(ep, new Route(name, matcher::matches, priority, handler, tls != null)));
                }
                routes.addAll(own);
                tlsNames.addAll(ownNames);
            } catch (IllegalArgumentException bad) {
                errors.put(name, bad.getMessage());
            }
        }
        rules = compiledRules;
        builtMiddlewares.publish();
        previous.forEach((name, old) -> {
            if (built.get(name) != old) {
                old.handler().close();
            }
        });
        return new Result(routes, built, errors, builtMiddlewares.errors(), tlsNames.optionsByHost(), tlsNames.wanted(),
                tlsNames.warnings());
    }

    /**
     * The router's TLS on an entry point: its own, else the entry point's {@code http.tls} (Traefik's entry-point
     * model), whose options name resolves in the router's provider like the router's own would.
     */
    private RouterTls effectiveTls(String routerName, Router router, String ep) {
        if (router.tls() != null) {
            return router.tls();
        }
        EntryPointTlsConfig model = install.entryPoints().get(ep).http().tls();
        if (model == null) {
            return null;
        }
        String provider = routerName.substring(routerName.lastIndexOf('@') + 1);
        return new RouterTls(model.certResolver(), ConfigurationMerger.qualifyOptions(model.options(), provider),
                model.domains());
    }

    /** The name of the router's TLS options, which must exist and be valid (else the router is disabled). */
    private static String options(RouterTls tls, TlsCompiler.Options tlsOptions) {
        String name = tls.options() == null ? TlsOptions.DEFAULT_NAME : tls.options();
        String broken = tlsOptions.errors().get(name);
        if (broken != null) {
            throw new IllegalArgumentException("TLS options " + name + " are invalid: " + broken);
        }
        if (!tlsOptions.valid().containsKey(name)) {
            throw new IllegalArgumentException("TLS options \"" + name + "\" do not exist");
        }
        return name;
    }

    private boolean resolverExists(String name) {
        return resolvers.exists(name);
    }

    private static HttpRule compileRule(String rule) {
        if (rule.isBlank()) {
            throw new IllegalArgumentException("no rule");
        }
        try {
            return HttpRule.compile(rule);
        } catch (RuleSyntaxException e) {
            throw new IllegalArgumentException("invalid rule: " + e.getMessage());
        }
    }

    private List<String> entryPointsOf(Router config) {
        if (config.entryPoints().isEmpty()) {
            return install.defaultEntryPoints();
        }
        for (String ep : config.entryPoints()) {
            if (!install.entryPoints().containsKey(ep)) {
                throw new IllegalArgumentException("entry point \"" + ep + "\" does not exist");
            }
        }
        return config.entryPoints();
    }

    private RouteHandler serviceHandler(String name, Map<String, Service> services, Map<String, CompiledService> previous,
                                        Map<String, CompiledService> built, Set<String> visiting) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no service given");
        }
        if (InternalServices.isInternal(name)) {
            return internal.resolve(name);
        }
        return service(name, services, previous, built, visiting);
    }

    private ServiceHandler service(String name, Map<String, Service> services, Map<String, CompiledService> previous,
                                   Map<String, CompiledService> built, Set<String> visiting) {
        CompiledService done = built.get(name);
        if (done != null) {
            return done.handler();
        }
        Service config = services.get(name);
        if (config == null) {
            throw new IllegalArgumentException("the service \"" + name + "\" does not exist");
        }
        if (!visiting.add(name)) {
            throw new IllegalArgumentException("service " + name + " refers to itself through weighted services");
        }
        CompiledService old = previous.get(name);
        ServiceHandler handler;
        if (old != null && old.config().equals(config)) {
            handler = old.handler();
        } else if (config.loadBalancer() != null) {
            handler = new LoadBalancedService(name, config.loadBalancer(), forwarder, this::trusted);
        } else {
            List<ServiceHandler> children = new ArrayList<>();
            List<Integer> weights = new ArrayList<>();
            for (WeightedService member : config.weighted().services()) {
                children.add(service(member.name(), services, previous, built, visiting));
                weights.add(member.weight());
            }
            handler = new WeightedServiceHandler(name, children, weights, config.weighted().sticky());
        }
        visiting.remove(name);
        built.put(name, new CompiledService(config, handler));
        return handler;
    }

    private boolean trusted(Exchange exchange) {
        Predicate<Exchange> p = trustByEntryPoint.get(exchange.entryPoint());
        return p != null && p.test(exchange);
    }

    private static Predicate<Exchange> trust(EntryPointConfig ep) {
        if (ep.forwardedHeaders().insecure()) {
            return ex -> true;
        }
        IpRanges trusted = IpRanges.parse(ep.forwardedHeaders().trustedIPs());
        return trusted.isEmpty() ? ex -> false : ex -> trusted.contains(ex.clientAddress());
    }
}
