package dev.proxy.server;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.PingConfig;
import dev.proxy.ping.PingHandler;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the current {@link RoutingSnapshot}. Providers' configurations end here: they are merged and compiled
 * into a new snapshot that replaces the old one atomically; requests read it once.
 */
@Singleton
public class RoutingService {

    /** Above every user router, as Traefik's internal ping router. */
    static final long INTERNAL_PRIORITY = Long.MAX_VALUE;

    private final AtomicReference<RoutingSnapshot> current;

    public RoutingService(InstallConfig config, PingHandler ping) {
        this.current = new AtomicReference<>(new RoutingSnapshot(internalRoutes(config, ping)));
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
