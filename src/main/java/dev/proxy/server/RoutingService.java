package dev.proxy.server;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.PingConfig;
import dev.proxy.ping.PingHandler;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.provider.MergedConfigListener;
import dev.proxy.server.forward.Forwarder;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the current {@link RoutingSnapshot}. Providers' configurations end here: they are merged and compiled
 * into a new snapshot that replaces the old one atomically; requests read it once.
 */
@Singleton
public class RoutingService implements MergedConfigListener {

    /** Above every user router, as Traefik's internal ping router. */
    static final long INTERNAL_PRIORITY = Long.MAX_VALUE;

    private static final Logger LOG = LoggerFactory.getLogger(RoutingService.class);

    private final AtomicReference<RoutingSnapshot> current;
    private final RoutingCompiler compiler;
    private Map<String, RoutingCompiler.CompiledService> services = Map.of();
    private volatile Map<String, String> errors = Map.of();

    public RoutingService(InstallConfig config, PingHandler ping, Forwarder forwarder, Middlewares middlewares) {
        this.current = new AtomicReference<>(new RoutingSnapshot(internalRoutes(config, ping)));
        this.compiler = new RoutingCompiler(config, forwarder, ping, middlewares);
    }

    @Override
    public void onMergedConfig(MergedConfig merged) {
        apply(merged.routers(), merged.services(), merged.middlewares());
    }

    /**
     * Compiles a merged configuration (qualified names) and publishes it. Called by the configuration watcher's
     * single thread, never on a request thread.
     */
    public synchronized void apply(Map<String, Router> routers, Map<String, Service> services,
                                   Map<String, Middleware> middlewares) {
        long start = System.nanoTime();
        RoutingCompiler.Result result = compiler.compile(routers, services, middlewares, this.services);
        current.set(result.snapshot());
        this.services = result.services();
        this.errors = result.errors();
        result.errors().forEach((router, reason) -> LOG.error("router {} disabled: {}", router, reason));
        LOG.debug("routing rebuilt in {} µs: {} routers, {} services", (System.nanoTime() - start) / 1000,
                routers.size() - result.errors().size(), result.services().size());
    }

    /** Routers disabled by the last configuration, with the reason. */
    public Map<String, String> errors() {
        return errors;
    }

    public RoutingSnapshot snapshot() {
        return current.get();
    }

    public void publish(RoutingSnapshot snapshot) {
        current.set(snapshot);
    }

    /** The automatic {@code ping@internal} router: exact path {@code /ping} on the ping entry point. */
    static List<Map.Entry<String, Route>> internalRoutes(InstallConfig config, PingHandler ping) {
        List<Map.Entry<String, Route>> routes = new ArrayList<>();
        PingConfig pc = config.ping();
        if (pc != null && !pc.manualRouting()) {
            routes.add(Map.entry(pc.entryPoint(),
                    new Route("ping@internal", ex -> ex.path().equals("/ping"), INTERNAL_PRIORITY, ping)));
        }
        return routes;
    }
}
