package dev.proxy.server;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The compiled routing of every entry point at one moment. Immutable: a new configuration builds a new snapshot
 * off the request path and publishes it with one reference swap, so a request reads exactly one snapshot.
 */
public final class RoutingSnapshot {

    public static final RoutingSnapshot EMPTY = new RoutingSnapshot(List.of());

    private final Map<String, Route[]> byEntryPoint;

    /** Routes are keyed by entry point name; each list is sorted by descending priority, then by name. */
    public RoutingSnapshot(List<Map.Entry<String, Route>> routes) {
        this.byEntryPoint = routes.stream().collect(Collectors.groupingBy(Map.Entry::getKey,
                Collectors.collectingAndThen(Collectors.mapping(Map.Entry::getValue, Collectors.toList()),
                        list -> list.stream()
                                .sorted(Comparator.comparingLong(Route::priority).reversed().thenComparing(Route::name))
                                .toArray(Route[]::new))));
    }

    /** The highest-priority route matching the request on this entry point, or null. */
    public Route route(String entryPoint, Exchange exchange) {
        Route[] routes = byEntryPoint.get(entryPoint);
        if (routes == null) {
            return null;
        }
        for (Route r : routes) {
            if (r.matcher().test(exchange)) {
                return r;
            }
        }
        return null;
    }

    public List<Route> routes(String entryPoint) {
        Route[] routes = byEntryPoint.get(entryPoint);
        return routes == null ? List.of() : List.of(routes);
    }
}
