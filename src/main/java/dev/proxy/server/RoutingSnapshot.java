package dev.proxy.server;

import dev.proxy.tls.TlsSnapshot;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The compiled routing of every entry point at one moment, with the TLS settings handshakes are answered with.
 * Immutable: a new configuration builds a new snapshot off the request path and publishes it with one reference
 * swap, so a request reads exactly one snapshot.
 *
 * <p>Routes are kept apart by connection kind: a TLS router serves TLS connections only and any other router plain
 * connections only, as in Traefik, where one port serves both only through separate routers.
 */
public final class RoutingSnapshot {

    private static final Route[] NONE = new Route[0];

    private final Map<String, Route[]> plain;
    private final Map<String, Route[]> tls;
    private final TlsSnapshot tlsSettings;

    /** Routes are keyed by entry point name; each list is sorted by descending priority, then by name. */
    public RoutingSnapshot(List<Map.Entry<String, Route>> routes, TlsSnapshot tlsSettings) {
        this.plain = index(routes.stream().filter(e -> !e.getValue().tls()).toList());
        this.tls = index(routes.stream().filter(e -> e.getValue().tls()).toList());
        this.tlsSettings = tlsSettings;
    }

    private RoutingSnapshot(Map<String, Route[]> plain, Map<String, Route[]> tls, TlsSnapshot tlsSettings) {
        this.plain = plain;
        this.tls = tls;
        this.tlsSettings = tlsSettings;
    }

    private static Map<String, Route[]> index(List<Map.Entry<String, Route>> routes) {
        return routes.stream().collect(Collectors.groupingBy(Map.Entry::getKey,
                Collectors.collectingAndThen(Collectors.mapping(Map.Entry::getValue, Collectors.toList()),
                        list -> list.stream()
                                .sorted(Comparator.comparingLong(Route::priority).reversed().thenComparing(Route::name))
                                .toArray(Route[]::new))));
    }

    /** The same routes with other TLS settings (certificates obtained by a resolver). */
    public RoutingSnapshot withTls(TlsSnapshot settings) {
        return new RoutingSnapshot(plain, tls, settings);
    }

    /** The highest-priority route matching the request on this entry point and kind of connection, or null. */
    public Route route(String entryPoint, boolean overTls, Exchange exchange) {
        Route[] routes = (overTls ? tls : plain).getOrDefault(entryPoint, NONE);
        for (Route r : routes) {
            if (r.matcher().test(exchange)) {
                return r;
            }
        }
        return null;
    }

    /** Whether TLS handshakes are answered on this entry point: some router on it is a TLS router. */
    public boolean acceptsTls(String entryPoint) {
        return tls.containsKey(entryPoint);
    }

    public TlsSnapshot tls() {
        return tlsSettings;
    }
}
