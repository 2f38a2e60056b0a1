package dev.proxy.server;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.LifeCycleConfig;
import dev.proxy.ping.PingEndpoint;
import dev.proxy.tls.acme.CertificateResolvers;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All entry points of the process: binds them at start, and on a termination signal runs the graceful shutdown.
 *
 * <p>Shutdown: ping switches to its terminating status at once. Every other entry point keeps accepting for its
 * {@code requestAcceptGraceTimeout}, then stops accepting and drains within its {@code graceTimeOut}. The ping entry
 * point stays open until they have all drained (Traefik closes it with the others, so with the default grace of 0s
 * health checkers see "connection refused" instead of the terminating status), then drains itself.
 */
@Singleton
public class ProxyServer {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyServer.class);

    private final InstallConfig config;
    private final NettyTransport transport;
    private final PingEndpoint ping;
    private final Map<String, EntryPoint> entryPoints = new LinkedHashMap<>();

    public ProxyServer(InstallConfig config, NettyTransport transport, RoutingService routing, PingEndpoint ping,
                       CertificateResolvers resolvers, List<ExchangeListener> listeners) {
        this.config = config;
        this.transport = transport;
        this.ping = ping;
        config.entryPoints().forEach((name, ep) ->
                entryPoints.put(name, new EntryPoint(name, ep, routing, resolvers.challenges(), listeners)));
    }

    /** Binds every entry point; on failure the ones already bound are closed again. */
    public void start() {
        List<EntryPoint> bound = new ArrayList<>();
        try {
            for (EntryPoint ep : entryPoints.values()) {
                ep.bind(transport);
                bound.add(ep);
            }
        } catch (RuntimeException e) {
            bound.forEach(EntryPoint::stopAccepting);
            throw e;
        }
    }

    public Map<String, EntryPoint> entryPoints() {
        return Map.copyOf(entryPoints);
    }

    /** Runs the graceful shutdown and returns when every entry point has drained or timed out. */
    public void shutdown() {
        ping.startTerminating();
        String pingEntryPoint = config.pingEnabled() ? config.ping().entryPoint() : null;
        LOG.info("shutting down: ping answers {} until the entry points have drained", ping.status());
        long start = System.nanoTime();
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (EntryPoint ep : entryPoints.values()) {
            if (!ep.name().equals(pingEntryPoint)) {
                drains.add(drainAfterGrace(ep, Duration.ZERO));
            }
        }
        CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new)).join();
        EntryPoint pingEp = pingEntryPoint == null ? null : entryPoints.get(pingEntryPoint);
        if (pingEp != null) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            drainAfterGrace(pingEp, elapsed).join();
        }
        LOG.info("all entry points drained in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /** Keeps accepting for what is left of the grace period, then stops accepting and drains. */
    private static CompletableFuture<Void> drainAfterGrace(EntryPoint ep, Duration alreadyElapsed) {
        LifeCycleConfig lc = ep.config().transport().lifeCycle();
        long waitMillis = Math.max(0, lc.requestAcceptGraceTimeout().minus(alreadyElapsed).toMillis());
        Executor later = CompletableFuture.delayedExecutor(waitMillis, TimeUnit.MILLISECONDS);
        return CompletableFuture.runAsync(ep::stopAccepting, later)
                .thenCompose(v -> ep.drain(lc.graceTimeOut()));
    }

    /** One line per entry point for the start-up log. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        entryPoints.forEach((name, ep) -> parts.add(name + "=" + ep.config().address()));
        return String.join(", ", parts);
    }
}
