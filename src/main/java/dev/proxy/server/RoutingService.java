package dev.proxy.server;

import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.TlsConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.ping.PingHandler;
import dev.proxy.provider.MergedConfigListener;
import dev.proxy.server.balance.ServiceHandler;
import dev.proxy.server.forward.Forwarder;
import dev.proxy.tls.CertificateFiles;
import dev.proxy.tls.SelfSignedCertificate;
import dev.proxy.tls.TlsCompiler;
import dev.proxy.tls.TlsSnapshot;
import dev.proxy.tls.acme.AcmeHttpChallengeHandler;
import dev.proxy.tls.acme.CertificateResolvers;
import io.netty.util.concurrent.DefaultThreadFactory;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link RoutingSnapshot}. Providers' configurations end here: they are merged and compiled
 * into a new snapshot that replaces the old one atomically; requests read it once. Certificates obtained by the
 * resolvers are published the same way, with the routes unchanged.
 */
@Singleton
public class RoutingService implements MergedConfigListener {

    /** Above every user router, as Traefik's internal ping router. */
    static final long INTERNAL_PRIORITY = Long.MAX_VALUE;
    /** How often certificate files are checked for changes. */
    static final Duration FILE_CHECK = Duration.ofSeconds(2);

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
    private final TlsCompiler tlsCompiler;
    private final CertificateResolvers resolvers;
    private final InternalServices internal;
    private Map<String, RoutingCompiler.CompiledService> services = Map.of();
    private volatile Applied applied = new Applied(MergedConfig.EMPTY, Map.of(), Map.of(), Map.of(), 0, null);
    /** What the TLS settings were last built from, to rebuild them when resolvers' certificates change. */
    private TlsConfig lastTls = TlsConfig.EMPTY;
    private TlsCompiler.Options lastOptions;
    private Map<String, Map<String, String>> lastOptionsByHost = Map.of();
    private volatile CertificateFiles files = CertificateFiles.of(TlsConfig.EMPTY);
    private final ScheduledExecutorService fileCheck;
    private final SelfSignedCertificate.Lazy defaultCertificate = SelfSignedCertificate.onFirstUse();

    @Inject
    public RoutingService(InstallConfig config, InternalServices internal, Forwarder forwarder,
                          Middlewares middlewares, CertificateResolvers resolvers) {
        this.internal = internal;
        // Generated on a thread of its own once TLS is configured (here: an entry point's http.tls; later: a router
        // with tls), ~0.1 CPU-s with Bouncy Castle's first use that a start without TLS does not pay, nor hold its
        // ~300 classes in memory; a handshake needing it before it is made waits for it.
        if (config.entryPoints().values().stream().anyMatch(ep -> ep.http().tls() != null)) {
            defaultCertificate.prepare();
        }
        this.tlsCompiler = new TlsCompiler(defaultCertificate);
        this.resolvers = resolvers;
        this.lastOptions = tlsCompiler.options(TlsConfig.EMPTY);
        TlsSnapshot tls = new TlsSnapshot(tlsCompiler.certificates(TlsConfig.EMPTY, resolvers.certificates()).store(),
                lastOptions.valid(), Map.of(), null);
        this.current = new AtomicReference<>(new RoutingSnapshot(internalRoutes(internal, resolvers), tls));
        this.compiler = new RoutingCompiler(config, forwarder, internal, middlewares, resolvers);
        resolvers.onChange(this::certificatesChanged);
        fileCheck = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("proxy-tls-files", true));
        fileCheck.scheduleWithFixedDelay(this::checkCertificateFiles, FILE_CHECK.toMillis(), FILE_CHECK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** With ping as the only internal service. */
    public RoutingService(InstallConfig config, PingHandler ping, Forwarder forwarder, Middlewares middlewares,
                          CertificateResolvers resolvers) {
        this(config, InternalServices.of(config, ping, List::of), forwarder, middlewares, resolvers);
    }

    /** Compiles a configuration without TLS settings (tests). */
    public void apply(Map<String, Router> routers, Map<String, Service> services, Map<String, Middleware> middlewares) {
        onMergedConfig(new MergedConfig(routers, services, middlewares, List.of()));
    }

    /** Compiles routers, services, middlewares and TLS settings given directly (no merge errors). */
    public void apply(Map<String, Router> routers, Map<String, Service> services,
                      Map<String, Middleware> middlewares, TlsConfig tls) {
        onMergedConfig(new MergedConfig(routers, services, middlewares, tls, List.of()));
    }

    /**
     * Compiles a merged configuration (qualified names) and publishes it. Called by the configuration watcher's
     * single thread, never on a request thread. Certificate files are read here, so a changed file is served from
     * the next configuration on.
     */
    @Override
    public synchronized void onMergedConfig(MergedConfig merged) {
        Map<String, Router> routers = merged.routers();
        TlsConfig tls = merged.tls();
        if (routers.values().stream().anyMatch(r -> r.tls() != null)) {
            defaultCertificate.prepare();
        }
        long start = System.nanoTime();
        TlsCompiler.Options options = tlsCompiler.options(tls);
        options.errors().forEach((name, reason) -> LOG.error("TLS options {} invalid: {}", name, reason));
        RoutingCompiler.Result result = compiler.compile(routers, merged.services(), merged.middlewares(), options,
                this.services);
        lastTls = tls;
        lastOptions = options;
        lastOptionsByHost = result.optionsByHost();
        current.set(new RoutingSnapshot(result.routes(), tlsSnapshot()));
        this.services = result.services();
        Map<String, ServiceHandler> handlers = new LinkedHashMap<>();
        result.services().forEach((name, s) -> handlers.put(name, s.handler()));
        applied = new Applied(merged, result.errors(), result.middlewareErrors(), Map.copyOf(handlers),
                applied.reloads() + 1, Instant.now());
        result.errors().forEach((router, reason) -> LOG.error("router {} disabled: {}", router, reason));
        result.warnings().forEach(w -> LOG.warn("{}", w));
        resolvers.want(result.certificatesWanted());
        LOG.debug("routing rebuilt in {} µs: {} routers, {} services", (System.nanoTime() - start) / 1000,
                routers.size() - result.errors().size(), result.services().size());
    }

    /** A resolver obtained or renewed a certificate, or a file changed: the same routes, new TLS settings. */
    private synchronized void certificatesChanged() {
        current.set(current.get().withTls(tlsSnapshot()));
    }

    private void checkCertificateFiles() {
        try {
            if (files.changed()) {
                LOG.info("TLS certificate files changed: reloading them");
                certificatesChanged();
            }
        } catch (RuntimeException e) {
            LOG.error("TLS certificate reload failed", e);
        }
    }

    private TlsSnapshot tlsSnapshot() {
        files = CertificateFiles.of(lastTls); // before reading them: a change while reading is seen next time
        TlsCompiler.Certificates certificates = tlsCompiler.certificates(lastTls, resolvers.certificates());
        certificates.errors().forEach(e -> LOG.error("TLS {}", e));
        lastOptions.valid().values().stream().filter(o -> o.curvePreferencesIgnored()).forEach(o ->
                LOG.warn("TLS options {}: curvePreferences need Java 20 or later; this JVM uses its default groups",
                        o.name()));
        return new TlsSnapshot(certificates.store(), lastOptions.valid(), lastOptionsByHost, current.get().tls());
    }

    @PreDestroy
    public void close() {
        fileCheck.shutdownNow();
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

    /**
     * The internal routers: those of {@link InternalServices} (ping, api, dashboard, prometheus) and
     * {@code acme-http@internal} (HTTP-01 challenges on each resolver's {@code httpChallenge.entryPoint}, plain
     * connections, as the CA connects).
     */
    static List<Map.Entry<String, Route>> internalRoutes(InternalServices internal, CertificateResolvers resolvers) {
        List<Map.Entry<String, Route>> routes = new ArrayList<>(internal.automaticRoutes());
        AcmeHttpChallengeHandler acme = new AcmeHttpChallengeHandler(resolvers.challenges());
        for (String ep : resolvers.httpChallengeEntryPoints()) {
            routes.add(Map.entry(ep, new Route(AcmeHttpChallengeHandler.NAME, AcmeHttpChallengeHandler::matches,
                    INTERNAL_PRIORITY, acme, false)));
        }
        return routes;
    }
}
