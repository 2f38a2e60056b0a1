package dev.proxy.testing;

import dev.proxy.accesslog.AccessLog;
import dev.proxy.api.ApiHandler;
import dev.proxy.api.DashboardHandler;
import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigEntry;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.ConfigurationMerger;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.ping.PingEndpoint;
import dev.proxy.ping.PingHandler;
import dev.proxy.provider.Backoff;
import dev.proxy.server.forward.BackendPool;
import dev.proxy.server.forward.BackendTls;
import dev.proxy.tls.acme.CertificateResolvers;
import dev.proxy.server.forward.Forwarder;
import dev.proxy.metrics.PrometheusHandler;
import dev.proxy.metrics.ProxyMetrics;
import dev.proxy.provider.ConfigurationWatcher;
import dev.proxy.provider.Provider;
import dev.proxy.provider.ProviderActivity;
import dev.proxy.server.EntryPoint;
import dev.proxy.server.ExchangeListener;
import dev.proxy.server.InternalServices;
import dev.proxy.server.RouteHandler;
import dev.proxy.server.NettyTransport;
import dev.proxy.server.ProxyServer;
import dev.proxy.server.RoutingService;
import java.util.ArrayList;
import java.io.StringReader;
import java.util.List;
import java.util.Map;

/**
 * The data plane wired by hand (no DI container) on ephemeral loopback ports, for in-JVM tests over real sockets:
 * install flags in, a dynamic YAML configuration applied as provider {@code file}. The operating features follow
 * the flags as in the program: {@code --api} (API and dashboard), {@code --metrics.prometheus}, {@code --accessLog}.
 */
public final class DataPlane implements AutoCloseable {

    public final InstallConfig install;
    public final NettyTransport transport;
    public final PingEndpoint pingEndpoint;
    public final RoutingService routing;
    public final Middlewares middlewares;
    public final CertificateResolvers resolvers;
    public final ProxyServer server;
    /** The TLS settings of particular services' backends (Connect services of the registryCatalog provider). */
    public final BackendTls backendTls = new BackendTls();
    public final ProviderActivity activity = new ProviderActivity();
    /** Present with {@code --metrics.prometheus}. */
    public final ProxyMetrics metrics;
    /** Present with {@code --accessLog}. */
    public final AccessLog accessLog;
    private final List<Provider> providers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ConfigurationWatcher watcher;

    /** Finished exchanges, in order (listeners see them on the event loop). */
    public final List<dev.proxy.server.ExchangeRecord> exchanges = new java.util.concurrent.CopyOnWriteArrayList<>();

    public DataPlane(String... installFlags) {
        this(new Middlewares(), installFlags);
    }

    /** @param middlewares the middleware factory (tests give it a fake clock); closed with the data plane */
    public DataPlane(Middlewares middlewares, String... installFlags) {
        this(middlewares, CertificateResolvers.DEFAULT_RETRIES, installFlags);
    }

    /** @param retries delays between failed certificate orders (ACME tests shorten them) */
    public DataPlane(Backoff retries, String... installFlags) {
        this(new Middlewares(), retries, installFlags);
    }

    /** @param transport {@code auto}, {@code io_uring}, {@code epoll} or {@code nio}: the network I/O to run on */
    public static DataPlane onTransport(String transport, String... installFlags) {
        return new DataPlane(new Middlewares(), CertificateResolvers.DEFAULT_RETRIES, transport, installFlags);
    }

    private DataPlane(Middlewares middlewares, Backoff retries, String... installFlags) {
        this(middlewares, retries, System.getProperty("proxy.transport", "auto"), installFlags);
    }

    private DataPlane(Middlewares middlewares, Backoff retries, String transportKind, String... installFlags) {
        this.middlewares = middlewares;
        this.transport = new NettyTransport(transportKind);
        List<ConfigEntry> entries = CommandLineEntries.fromFlags(List.of(installFlags));
        install = RecordDecoder.decode(InstallConfig.class, entries);
        pingEndpoint = new PingEndpoint(install);
        PingHandler ping = new PingHandler(pingEndpoint);
        Forwarder forwarder = new Forwarder(new BackendPool(transport, install, backendTls), install);
        resolvers = new CertificateResolvers(install, retries);
        List<RouteHandler> internalHandlers = new ArrayList<>();
        InternalServices internal = InternalServices.of(install, install.pingEnabled() ? ping : null,
                () -> internalHandlers);
        routing = new RoutingService(install, internal, forwarder, middlewares, resolvers);
        List<ExchangeListener> listeners = new ArrayList<>();
        listeners.add(exchanges::add);
        accessLog = install.accessLog() == null ? null : new AccessLog(install);
        if (accessLog != null) {
            listeners.add(accessLog);
        }
        metrics = install.metrics().enabled()
                ? ProxyMetrics.of(install, routing, activity, this::runningEntryPoints, accessLog) : null;
        if (metrics != null) {
            listeners.add(metrics);
            internalHandlers.add(new PrometheusHandler(metrics));
        }
        if (install.api() != null) {
            internalHandlers.add(new ApiHandler(install, routing, this::runningEntryPoints, activity,
                    () -> List.copyOf(providers), io.micronaut.serde.ObjectMapper.getDefault()));
            if (install.api().dashboard()) {
                internalHandlers.add(new DashboardHandler(install));
            }
        }
        server = new ProxyServer(install, transport, routing, pingEndpoint, resolvers, listeners);
        server.start();
    }

    private Map<String, EntryPoint> runningEntryPoints() {
        return server.entryPoints();
    }

    public int port(String entryPoint) {
        return server.entryPoints().get(entryPoint).port();
    }

    public String url(String entryPoint, String path) {
        return "http://127.0.0.1:" + port(entryPoint) + path;
    }

    public String httpsUrl(String entryPoint, String path) {
        return "https://127.0.0.1:" + port(entryPoint) + path;
    }

    /** Applies a dynamic YAML configuration as the only provider, {@code file}: names get {@code @file}. */
    public void apply(String yaml) {
        apply("file", yaml);
    }

    /** Applies a dynamic YAML configuration as the only provider, {@code provider}: names get {@code @provider}. */
    public void apply(String provider, String yaml) {
        DynamicConfig c = RecordDecoder.decode(DynamicConfig.class, YamlEntries.read(new StringReader(yaml), "test"));
        routing.onMergedConfig(ConfigurationMerger.merge(Map.of(provider, c)));
    }

    /**
     * Runs a real provider the way the program does: its configurations go through a {@link ConfigurationWatcher}
     * (throttle from the install flags) into the routing.
     */
    public void run(Provider provider) {
        if (watcher == null) {
            watcher = new ConfigurationWatcher(install, List.of(routing), activity);
        }
        providers.add(provider);
        provider.start(watcher);
    }

    @Override
    public void close() {
        providers.forEach(Provider::stop);
        server.entryPoints().values().forEach(EntryPoint::stopAccepting);
        transport.close();
        middlewares.close();
        resolvers.close();
        routing.close();
        if (accessLog != null) {
            accessLog.close();
        }
        if (metrics != null) {
            metrics.close();
        }
    }
}
