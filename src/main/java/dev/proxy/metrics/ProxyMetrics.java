package dev.proxy.metrics;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.PrometheusConfig;
import dev.proxy.provider.ProviderActivity;
import dev.proxy.server.EntryPoint;
import dev.proxy.server.ExchangeListener;
import dev.proxy.server.ExchangeRecord;
import dev.proxy.server.ProxyServer;
import dev.proxy.server.RoutingService;
import dev.proxy.server.balance.LoadBalancedService;
import dev.proxy.server.balance.ServerState;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The proxy's metrics in a Prometheus registry (Micrometer), named by Prometheus conventions:
 *
 * <ul>
 * <li>{@code proxy_entrypoint_requests_total}, {@code proxy_entrypoint_request_duration_seconds} (histogram) by
 *     {@code entrypoint}, {@code code}, {@code method}; the same as {@code proxy_router_*} (with {@code router} and
 *     {@code service}, off by default) and {@code proxy_service_*} (with {@code service});
 * <li>{@code proxy_open_connections{entrypoint}}, {@code proxy_entrypoint_refused_connections_total{entrypoint}};
 * <li>{@code proxy_service_server_up{service,url}}: 1 up, 0 down;
 * <li>{@code proxy_config_reloads_total}, {@code proxy_config_last_reload_success_timestamp_seconds};
 * <li>{@code proxy_provider_refreshes_total}, {@code proxy_provider_refresh_failures_total},
 *     {@code proxy_provider_refresh_duration_seconds} (count and sum),
 *     {@code proxy_provider_last_refresh_success_timestamp_seconds}, by {@code provider};
 * <li>{@code proxy_accesslog_dropped_lines_total} when the access log is on; JVM and process metrics.
 * </ul>
 *
 * Requests are recorded from {@link ExchangeListener} on the event loop through cached meters
 * ({@link RequestMeters}); everything that only changes with configuration or health is read when Prometheus
 * scrapes, not maintained per request. Traffic to internal services is left out unless {@code metrics.addInternals}.
 */
@Singleton
@Requires(condition = MetricsEnabled.class)
public final class ProxyMetrics implements ExchangeListener, AutoCloseable {

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    private final PrometheusConfig config;
    private final boolean addInternals;
    private final Duration[] buckets;
    private final RoutingService routing;
    private final ProviderActivity activity;
    private final Map<String, RequestMeters> entryPoints = new ConcurrentHashMap<>();
    private final Map<String, RequestMeters> routers = new ConcurrentHashMap<>();
    private final Map<String, RequestMeters> services = new ConcurrentHashMap<>();
    private final MultiGauge serverUp;
    private final Set<String> providersSeen = new HashSet<>();
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final @Nullable DroppedLines accessLogDrops; // kept: function meters hold their object weakly

    @Inject
    public ProxyMetrics(InstallConfig install, RoutingService routing, ProviderActivity activity,
                        BeanProvider<ProxyServer> server, @Nullable DroppedLines accessLogDrops) {
        this(install, routing, activity, (Supplier<Map<String, EntryPoint>>) () -> server.get().entryPoints(),
                accessLogDrops);
    }

    /**
     * Wired by hand (tests).
     *
     * @param entryPoints    the running entry points (asked when scraped)
     * @param accessLogDrops the access log's dropped-line count, when there is an access log
     */
    public static ProxyMetrics of(InstallConfig install, RoutingService routing, ProviderActivity activity,
                                  Supplier<Map<String, EntryPoint>> entryPoints, @Nullable DroppedLines accessLogDrops) {
        return new ProxyMetrics(install, routing, activity, entryPoints, accessLogDrops);
    }

    private ProxyMetrics(InstallConfig install, RoutingService routing, ProviderActivity activity,
                         Supplier<Map<String, EntryPoint>> entryPoints, @Nullable DroppedLines accessLogDrops) {
        this.config = install.metrics().prometheus();
        this.addInternals = install.metrics().addInternals();
        this.buckets = config.buckets().stream().map(s -> Duration.ofNanos((long) (s * 1e9))).toArray(Duration[]::new);
        this.routing = routing;
        this.activity = activity;
        this.accessLogDrops = accessLogDrops;
        for (String name : install.entryPoints().keySet()) {
            Gauge.builder("proxy.open.connections", () -> {
                        EntryPoint ep = entryPoints.get().get(name);
                        return ep == null ? 0 : ep.openConnections();
                    })
                    .description("Client connections open now").tag("entrypoint", name).register(registry);
            // The counter's state object is this (micrometer keeps it weakly; the supplier alone may be collected).
            FunctionCounter.builder("proxy.entrypoint.refused.connections", this, m -> {
                        EntryPoint ep = entryPoints.get().get(name);
                        return ep == null ? 0 : ep.refusedConnections();
                    })
                    .description("Connections closed at accept because the entry point was at transport.maxConnections")
                    .tag("entrypoint", name).register(registry);
        }
        serverUp = MultiGauge.builder("proxy.service.server.up")
                .description("Whether a load-balanced server is up (1) or down (0)").register(registry);
        FunctionCounter.builder("proxy.config.reloads", routing, r -> r.applied().reloads())
                .description("Dynamic configurations applied").register(registry);
        Gauge.builder("proxy.config.last.reload.success.timestamp", routing, r -> {
                    var at = r.applied().appliedAt();
                    return at == null ? 0 : at.toEpochMilli() / 1000.0;
                })
                .description("When the last dynamic configuration was applied").baseUnit("seconds").register(registry);
        if (accessLogDrops != null) {
            FunctionCounter.builder("proxy.accesslog.dropped.lines", accessLogDrops, DroppedLines::droppedLines)
                    .description("Access log lines dropped because the writer fell behind").register(registry);
        }
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Something whose dropped lines are counted (the access log). */
    public interface DroppedLines {
        long droppedLines();
    }

    @Override
    public void completed(ExchangeRecord r) {
        if (r.internal() && !addInternals) {
            return;
        }
        // 0 means no response was sent because the client went away: nginx's and Traefik's 499.
        int status = r.status() == 0 ? 499 : r.status();
        long nanos = r.durationNanos();
        if (config.addEntryPointsLabels()) {
            meters(entryPoints, r.entryPoint(), "proxy.entrypoint", n -> Tags.of("entrypoint", n))
                    .record(status, r.method(), nanos);
        }
        if (config.addRoutersLabels() && r.router() != null) {
            String service = r.service() == null ? "" : r.service();
            meters(routers, r.router(), "proxy.router", n -> Tags.of("router", n, "service", service))
                    .record(status, r.method(), nanos);
        }
        if (config.addServicesLabels() && r.service() != null) {
            meters(services, r.service(), "proxy.service", n -> Tags.of("service", n)).record(status, r.method(), nanos);
        }
    }

    private RequestMeters meters(Map<String, RequestMeters> scopes, String name, String prefix,
                                 Function<String, Tags> tags) {
        RequestMeters m = scopes.get(name);
        return m != null ? m : scopes.computeIfAbsent(name, n -> new RequestMeters(registry, prefix, tags.apply(n), buckets));
    }

    /** The Prometheus exposition, in the format the {@code Accept} header asks for (text 0.0.4 by default). */
    public String scrape(@Nullable String accept) {
        refresh();
        return registry.scrape(accept == null ? "text/plain" : accept);
    }

    /** The content type of {@link #scrape} for that {@code Accept} header. */
    public String contentType(@Nullable String accept) {
        return accept != null && accept.contains("application/openmetrics-text")
                ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                : "text/plain; version=0.0.4; charset=utf-8";
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** What is read rather than counted: server health, providers, and routers or services that went away. */
    private synchronized void refresh() {
        RoutingService.Applied applied = routing.applied();
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        applied.services().forEach((name, handler) -> {
            if (handler instanceof LoadBalancedService lb) {
                for (ServerState s : lb.servers()) {
                    rows.add(MultiGauge.Row.of(Tags.of("service", name, "url", s.target().url()), s,
                            st -> st.isUp() ? 1 : 0));
                }
            }
        });
        serverUp.register(rows, true);
        for (String provider : activity.snapshot().keySet()) {
            if (providersSeen.add(provider)) {
                registerProvider(provider);
            }
        }
        Set<String> internal = routing.internal().enabled().keySet();
        prune(routers, name -> applied.config().routers().containsKey(name) || internal.contains(name));
        prune(services, name -> applied.config().services().containsKey(name) || internal.contains(name));
    }

    private static void prune(Map<String, RequestMeters> scopes, java.util.function.Predicate<String> stillThere) {
        scopes.entrySet().removeIf(e -> {
            if (stillThere.test(e.getKey())) {
                return false;
            }
            e.getValue().remove();
            return true;
        });
    }

    private void registerProvider(String provider) {
        // Function meters hold their object weakly: the activity lives as long as the process, a lambda would not.
        Tags tags = Tags.of("provider", provider);
        FunctionCounter.builder("proxy.provider.refreshes", activity, a -> status(provider).refreshes())
                .description("Successful reads of the provider's source").tags(tags).register(registry);
        FunctionCounter.builder("proxy.provider.refresh.failures", activity, a -> status(provider).failures())
                .description("Failed reads of the provider's source").tags(tags).register(registry);
        FunctionTimer.builder("proxy.provider.refresh.duration", activity,
                        a -> status(provider).refreshes() + status(provider).failures(),
                        a -> status(provider).refreshTime().toNanos(), TimeUnit.NANOSECONDS)
                .description("Time spent reading the provider's source").tags(tags).register(registry);
        Gauge.builder("proxy.provider.last.refresh.success.timestamp", activity, a -> {
                    var at = status(provider).lastSuccess();
                    return at == null ? 0 : at.toEpochMilli() / 1000.0;
                })
                .description("When the provider last read its source successfully").baseUnit("seconds").tags(tags)
                .register(registry);
    }

    private ProviderActivity.Status status(String provider) {
        ProviderActivity.Status s = activity.status(provider);
        return s != null ? s : new ProviderActivity.Status(0, 0, Duration.ZERO, null, null, null, null);
    }

    @PreDestroy
    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
