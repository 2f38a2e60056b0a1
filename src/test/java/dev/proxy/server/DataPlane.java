package dev.proxy.server;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigEntry;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.ConfigurationMerger;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.ping.PingEndpoint;
import dev.proxy.ping.PingHandler;
import dev.proxy.server.forward.BackendPool;
import dev.proxy.server.forward.Forwarder;
import java.io.StringReader;
import java.util.List;
import java.util.Map;

/**
 * The data plane wired by hand (no DI container) on ephemeral loopback ports, for in-JVM tests over real sockets:
 * install flags in, a dynamic YAML configuration applied as provider {@code file}.
 */
final class DataPlane implements AutoCloseable {

    final InstallConfig install;
    final NettyTransport transport = new NettyTransport();
    final PingEndpoint pingEndpoint;
    final RoutingService routing;
    final ProxyServer server;

    DataPlane(String... installFlags) {
        List<ConfigEntry> entries = CommandLineEntries.fromFlags(List.of(installFlags));
        install = RecordDecoder.decode(InstallConfig.class, entries);
        pingEndpoint = new PingEndpoint(install);
        PingHandler ping = new PingHandler(pingEndpoint);
        Forwarder forwarder = new Forwarder(new BackendPool(transport, install), install);
        routing = new RoutingService(install, ping, forwarder);
        server = new ProxyServer(install, transport, routing, pingEndpoint);
        server.start();
    }

    int port(String entryPoint) {
        return server.entryPoints().get(entryPoint).port();
    }

    String url(String entryPoint, String path) {
        return "http://127.0.0.1:" + port(entryPoint) + path;
    }

    /** Applies a dynamic YAML configuration as the only provider, {@code file}: names get {@code @file}. */
    void apply(String yaml) {
        DynamicConfig c = RecordDecoder.decode(DynamicConfig.class, YamlEntries.read(new StringReader(yaml), "test"));
        routing.onMergedConfig(ConfigurationMerger.merge(Map.of("file", c)));
    }

    @Override
    public void close() {
        server.entryPoints().values().forEach(EntryPoint::stopAccepting);
        transport.close();
    }
}
