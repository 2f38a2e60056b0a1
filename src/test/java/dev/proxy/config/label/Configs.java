package dev.proxy.config.label;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.Weighted;
import dev.proxy.config.dynamic.WeightedService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test builders: short spellings of labels, items and whole expected configurations, so table rows stay short (also
 * used by the label providers' builder tests).
 */
public final class Configs {

    public static final String PREFIX = "proxy";
    public static final DefaultRule HOST_RULE = DefaultRule.compile("Host(`{{ normalize .Name }}`)");

    private Configs() {
    }

    /** Labels from {@code key=value} strings, split at the first {@code =} (like Consul tags). */
    public static Map<String, String> labels(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : pairs) {
            int eq = p.indexOf('=');
            out.put(p.substring(0, eq), p.substring(eq + 1));
        }
        return out;
    }

    /** The usual item: Consul-style service {@code app} at 127.0.0.2:8080. */
    public static Item item() {
        return item("app", "127.0.0.2", 8080);
    }

    public static Item item(String name, String address, Integer port) {
        return new Item("consul service " + name, name, address, port);
    }

    /** Decode + defaults with the default rule, as a provider does for one item. */
    public static BuildResult build(Item item, Map<String, String> labels) {
        return build(item, labels, HOST_RULE);
    }

    public static BuildResult build(Item item, Map<String, String> labels, DefaultRule rule) {
        DynamicConfig decoded = LabelDecoder.decode(labels, PREFIX, item.description() + " tag");
        return new ItemDefaults(rule).apply(decoded, item);
    }

    public static DynamicConfig http(Map<String, Router> routers, Map<String, Service> services) {
        return http(routers, services, Map.of());
    }

    public static DynamicConfig http(Map<String, Router> routers, Map<String, Service> services,
                              Map<String, Middleware> middlewares) {
        return new DynamicConfig(new HttpConfig(routers, services, middlewares));
    }

    /** {@code name, value, name, value, …} in order. */
    @SuppressWarnings("unchecked")
    public static <V> Map<String, V> map(Object... namesAndValues) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.put((String) namesAndValues[i], (V) namesAndValues[i + 1]);
        }
        return out;
    }

    public static Router router(String service, String rule) {
        return new Router(null, null, service, rule, null, null);
    }

    /** A load-balancer service with default settings over the given URLs. */
    public static Service lb(String... urls) {
        return service(new LoadBalancer(servers(urls), null, null, null, null));
    }

    public static Service service(LoadBalancer lb) {
        return new Service(lb, null);
    }

    public static List<Server> servers(String... urls) {
        List<Server> out = new ArrayList<>();
        for (String url : urls) {
            out.add(Server.of(url));
        }
        return out;
    }

    /** A weighted load balancer ({@code loadbalancer.weight}) over the given URLs. */
    public static Service weightedLb(int weight, String... urls) {
        return service(new LoadBalancer(servers(urls), null, null, null, weight));
    }

    /** A weighted (canary) service: {@code name, weight, name, weight, …}. */
    public static Service split(Object... namesAndWeights) {
        List<WeightedService> members = new ArrayList<>();
        for (int i = 0; i < namesAndWeights.length; i += 2) {
            members.add(new WeightedService((String) namesAndWeights[i], (Integer) namesAndWeights[i + 1]));
        }
        return new Service(null, new Weighted(members, null));
    }

    public static List<String> list(String... items) {
        return Arrays.asList(items);
    }
}
