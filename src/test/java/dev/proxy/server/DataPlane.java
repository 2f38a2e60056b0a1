package dev.proxy.server;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigEntry;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.Weighted;
import dev.proxy.config.dynamic.WeightedService;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.middleware.Middlewares;
import dev.proxy.ping.PingEndpoint;
import dev.proxy.ping.PingHandler;
import dev.proxy.server.forward.BackendPool;
import dev.proxy.server.forward.Forwarder;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data plane wired by hand (no DI container) on ephemeral loopback ports, for in-JVM tests over real sockets:
 * install flags in, a dynamic YAML configuration applied as provider {@code file}.
 */
public final class DataPlane implements AutoCloseable {

    public final InstallConfig install;
    final NettyTransport transport = new NettyTransport();
    final PingEndpoint pingEndpoint;
    public final RoutingService routing;
    public final Middlewares middlewares;
    final ProxyServer server;

    public DataPlane(String... installFlags) {
        this(new Middlewares(), installFlags);
    }

    /** @param middlewares the middleware factory (tests give it a fake clock); closed with the data plane */
    public DataPlane(Middlewares middlewares, String... installFlags) {
        this.middlewares = middlewares;
        List<ConfigEntry> entries = CommandLineEntries.fromFlags(List.of(installFlags));
        install = RecordDecoder.decode(InstallConfig.class, entries);
        pingEndpoint = new PingEndpoint(install);
        PingHandler ping = new PingHandler(pingEndpoint);
        Forwarder forwarder = new Forwarder(new BackendPool(transport, install), install);
        routing = new RoutingService(install, ping, forwarder, middlewares);
        server = new ProxyServer(install, transport, routing, pingEndpoint);
        server.start();
    }

    public int port(String entryPoint) {
        return server.entryPoints().get(entryPoint).port();
    }

    public String url(String entryPoint, String path) {
        return "http://127.0.0.1:" + port(entryPoint) + path;
    }

    /** Applies a dynamic YAML configuration as the only provider, {@code file}: names get {@code @file}. */
    public void apply(String yaml) {
        apply("file", yaml);
    }

    /** Applies a dynamic YAML configuration as the only provider, {@code provider}: names get {@code @provider}. */
    public void apply(String provider, String yaml) {
        DynamicConfig c = RecordDecoder.decode(DynamicConfig.class, YamlEntries.read(new StringReader(yaml), "test"));
        String suffix = "@" + provider;
        Map<String, Router> routers = new LinkedHashMap<>();
        c.http().routers().forEach((n, r) -> routers.put(n + suffix, new Router(r.entryPoints(),
                r.middlewares().stream().map(m -> qualify(m, suffix)).toList(), qualify(r.service(), suffix), r.rule(),
                r.priority(), r.tls())));
        Map<String, Service> services = new LinkedHashMap<>();
        c.http().services().forEach((n, s) -> services.put(n + suffix, s.weighted() == null ? s
                : new Service(null, new Weighted(s.weighted().services().stream()
                        .map(w -> new WeightedService(qualify(w.name(), suffix), w.weight())).toList(), s.weighted().sticky()))));
        Map<String, Middleware> middlewares = new LinkedHashMap<>();
        c.http().middlewares().forEach((n, m) -> middlewares.put(n + suffix, m));
        routing.apply(routers, services, middlewares);
    }

    private static String qualify(String name, String suffix) {
        return name.contains("@") ? name : name + suffix;
    }

    @Override
    public void close() {
        server.entryPoints().values().forEach(EntryPoint::stopAccepting);
        transport.close();
        middlewares.close();
    }
}
