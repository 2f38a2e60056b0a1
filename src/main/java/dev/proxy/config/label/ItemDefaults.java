package dev.proxy.config.label;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv6.IPv6Address;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Completes one item's label configuration the way Traefik's label providers do, so that an item with no labels at
 * all is routable:
 * <ul>
 *   <li>no service: one service named {@link Item#defaultName()} with a default load balancer;</li>
 *   <li>every load-balancer service gets exactly one server, the item itself:
 *       {@code <scheme>://<address>:<port>}, scheme from {@code loadbalancer.server.scheme} (default {@code http}),
 *       port from {@code loadbalancer.server.port} (through {@link Item#portMapper()}), else the item's port; an
 *       explicit {@code loadbalancer.server.url} is kept as is, and then scheme and port must not be set;</li>
 *   <li>no router and exactly one service: one router named {@link Item#defaultName()}; several services and no
 *       router: no router;</li>
 *   <li>a router without rule gets the {@link DefaultRule default rule}; without service, the item's only service.</li>
 * </ul>
 * A server that cannot be built (no port, bad address, url with port) makes the whole item invalid
 * ({@link ConfigException}: the provider skips it). A router that cannot be completed (the default rule renders
 * empty, no service among several) is left out with a {@link Problem}; the item's other resources stay.
 */
public final class ItemDefaults {

    static final Set<String> SCHEMES = Set.of("http", "https", "h2c");
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})");
    private static final Pattern IPV6_TEXT = Pattern.compile("[0-9A-Fa-f:.]+");

    private final DefaultRule defaultRule;

    public ItemDefaults(DefaultRule defaultRule) {
        this.defaultRule = defaultRule;
    }

    /**
     * @param decoded the item's configuration from {@link LabelDecoder}
     * @throws ConfigException {@code <description>: service <name>: <problem>} when a server cannot be built
     */
    public BuildResult apply(DynamicConfig decoded, Item item) {
        if (item.defaultName().isBlank()) {
            throw new ConfigException(item.description() + ": the item has no usable name");
        }
        HttpConfig http = decoded.http();
        Map<String, Service> services = new LinkedHashMap<>(http.services());
        if (services.isEmpty()) {
            services.put(item.defaultName(), new Service(new LoadBalancer(null, null, null, null, null), null));
        }
        services.replaceAll((name, service) -> service.loadBalancer() == null ? service
                : new Service(withServers(service.loadBalancer(), List.of(server(name, service.loadBalancer(), item))), null));

        Map<String, Router> routers = new LinkedHashMap<>(http.routers());
        List<Problem> problems = new ArrayList<>();
        if (routers.isEmpty() && services.size() == 1) {
            routers.put(item.defaultName(), new Router(null, null, null, null, null, null));
        }
        String rendered = null;
        for (Map.Entry<String, Router> e : new ArrayList<>(routers.entrySet())) {
            String name = e.getKey();
            Router router = e.getValue();
            String rule = router.rule();
            if (rule.isBlank()) {
                rendered = rendered != null ? rendered : defaultRule.render(item.ruleName(), item.ruleLabels());
                rule = rendered;
            }
            String service = router.service();
            if (service.isEmpty() && services.size() == 1) {
                service = services.keySet().iterator().next();
            }
            if (rule.isBlank()) {
                routers.remove(name);
                problems.add(problem(item, name, "has no rule and the default rule \"" + defaultRule.template()
                        + "\" renders empty for this item"));
            } else if (service.isEmpty()) {
                routers.remove(name);
                problems.add(problem(item, name, "has no service and the item defines several"));
            } else {
                routers.put(name, withRuleAndService(router, rule, service));
            }
        }
        return new BuildResult(new DynamicConfig(new HttpConfig(routers, services, http.middlewares())), problems);
    }

    private static Server server(String service, LoadBalancer lb, Item item) {
        if (lb.servers().size() > 1) {
            throw invalid(item, service, "an item is exactly one server, not " + lb.servers().size());
        }
        Server given = lb.servers().isEmpty() ? new Server(null, null, null, null) : lb.servers().get(0);
        boolean hasPort = given.port() != null && !given.port().isBlank();
        boolean hasScheme = given.scheme() != null && !given.scheme().isBlank();
        if (given.url() != null && !given.url().isBlank()) {
            if (hasPort || hasScheme) {
                throw invalid(item, service, "loadbalancer.server.url cannot be combined with server.port or server.scheme");
            }
            return given;
        }
        int port;
        if (hasPort) {
            if (!LabelDecoder.isPort(given.port().trim())) {
                throw invalid(item, service, "port \"" + given.port() + "\" is not a port (1-65535)");
            }
            port = item.portMapper().applyAsInt(Integer.parseInt(given.port().trim()));
        } else if (item.port() != null && item.port() != 0) {
            port = item.port();
        } else {
            throw invalid(item, service, "port is missing: the item has no port and no loadbalancer.server.port label");
        }
        if (port < 1 || port > 65535) {
            throw invalid(item, service, "port " + port + " is out of range (1-65535)");
        }
        String scheme = hasScheme ? given.scheme().trim().toLowerCase(Locale.ROOT) : "http";
        if (!SCHEMES.contains(scheme)) {
            throw invalid(item, service, "scheme \"" + scheme + "\" is not one of " + SCHEMES);
        }
        String url = scheme + "://" + host(item, service) + ":" + port;
        try {
            return new Server(url, given.weight(), null, null);
        } catch (IllegalArgumentException e) {
            throw invalid(item, service, "cannot make a URL of " + LabelDecoder.shown(url, 300) + ": " + e.getMessage());
        }
    }

    /** The item's address as a URL host; anything but an IP literal or a plain host name is refused. */
    private static String host(Item item, String service) {
        String address = item.address().trim();
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        if (address.isEmpty()) {
            throw invalid(item, service, "the item has no address");
        }
        if (address.indexOf(':') >= 0) {
            IPAddress ip = IPV6_TEXT.matcher(address).matches() ? new IPAddressString(address).getAddress() : null;
            if (ip == null || !ip.isIPv6() || ip.isPrefixed() || ip.isMultiple() || ((IPv6Address) ip).hasZone()) {
                throw badAddress(item, service, address);
            }
            return "[" + address + "]";
        }
        if (!HOST_NAME.matcher(address).matches() || address.contains("..")) {
            throw badAddress(item, service, address);
        }
        return address;
    }

    private static ConfigException badAddress(Item item, String service, String address) {
        return invalid(item, service, "address \"" + LabelDecoder.shown(address, 100) + "\" is not an IP address or host name");
    }

    private static ConfigException invalid(Item item, String service, String problem) {
        return new ConfigException(item.description() + ": service " + service + ": " + problem);
    }

    private static Problem problem(Item item, String router, String what) {
        return new Problem("router " + router, List.of(item.description()),
                item.description() + ": router " + router + " " + what);
    }

    static LoadBalancer withServers(LoadBalancer lb, List<Server> servers) {
        return new LoadBalancer(servers, lb.passHostHeader(), lb.healthCheck(), lb.sticky(), lb.weight(),
                lb.passiveHealthCheck());
    }

    static Router withRuleAndService(Router r, String rule, String service) {
        return new Router(r.entryPoints(), r.middlewares(), service, rule, r.priority(), r.tls());
    }
}
