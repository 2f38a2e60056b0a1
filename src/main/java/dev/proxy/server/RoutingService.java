package dev.proxy.server;

import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.ping.PingHandler;
import dev.proxy.provider.MergedConfigListener;
import dev.proxy.server.balance.ServiceHandler;
import dev.proxy.server.forward.Forwarder;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link RoutingSnapshot}. Providers' configurations end here: they are merged and compiled
 * into a new snapshot that replaces the old one atomically; requests read it once.
 */
@Singleton
public class RoutingService implements MergedConfigListener {

    private static final Logger LOG = LoggerFactory.getLogger(RoutingService.class);

    /**
     * What the last configuration became, for the API and metrics (one reference, so a reader sees one generation).
     *
     * @param config           the merged configuration applied
     * @param routerErrors     routers disabled by the data plane, with the reason
     * @param middlewareErrors middlewares that could not be built, with the reason
     * @param services         the service handlers in use (services no router uses are not built)
     * @param reloads          configurations applied since start
     * @param appliedAt        when this one was applied; null before the first
     */
    public record Applied(MergedConfig config, Map<String, String> routerErrors, Map<String, String> middlewareErrors,
                          Map<String, ServiceHandler> services, long reloads, Instant appliedAt) {
    }

    private final AtomicReference<RoutingSnapshot> current;
    private final RoutingCompiler compiler;
    private final InternalServices internal;
    private Map<String, RoutingCompiler.CompiledService> services = Map.of();
    private volatile Applied applied = new Applied(MergedConfig.EMPTY, Map.of(), Map.of(), Map.of(), 0, null);

    @Inject
    public RoutingService(InstallConfig config, InternalServices internal, Forwarder forwarder, Middlewares middlewares) {
        this.internal = internal;
        this.current = new AtomicReference<>(new RoutingSnapshot(internal.automaticRoutes()));
        this.compiler = new RoutingCompiler(config, forwarder, internal, middlewares);
    }

    /** With ping as the only internal service. */
    public RoutingService(InstallConfig config, PingHandler ping, Forwarder forwarder, Middlewares middlewares) {
        this(config, InternalServices.of(config, ping, List::of), forwarder, middlewares);
    }

    /**
     * Compiles a merged configuration (qualified names) and publishes it. Called by the configuration watcher's
     * single thread, never on a request thread.
     */
    @Override
    public synchronized void onMergedConfig(MergedConfig merged) {
        long start = System.nanoTime();
        RoutingCompiler.Result result = compiler.compile(merged.routers(), merged.services(), merged.middlewares(),
                this.services);
        current.set(result.snapshot());
        this.services = result.services();
        Map<String, ServiceHandler> handlers = new LinkedHashMap<>();
        result.services().forEach((name, s) -> handlers.put(name, s.handler()));
        applied = new Applied(merged, result.errors(), result.middlewareErrors(), Map.copyOf(handlers),
                applied.reloads() + 1, Instant.now());
        result.errors().forEach((router, reason) -> LOG.error("router {} disabled: {}", router, reason));
        LOG.debug("routing rebuilt in {} µs: {} routers, {} services", (System.nanoTime() - start) / 1000,
                merged.routers().size() - result.errors().size(), result.services().size());
    }

    /** Compiles routers, services and middlewares given directly (no merge errors). */
    public void apply(Map<String, Router> routers, Map<String, Service> services, Map<String, Middleware> middlewares) {
        onMergedConfig(new MergedConfig(routers, services, middlewares, List.of()));
    }

    /** Routers disabled by the last configuration, with the reason. */
    public Map<String, String> errors() {
        return applied.routerErrors();
    }

    /** The last configuration applied and what it became. */
    public Applied applied() {
        return applied;
    }

    public InternalServices internal() {
        return internal;
    }

    public RoutingSnapshot snapshot() {
        return current.get();
    }

    public void publish(RoutingSnapshot snapshot) {
        current.set(snapshot);
    }
}
