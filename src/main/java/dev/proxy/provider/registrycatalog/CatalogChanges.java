package dev.proxy.provider.registrycatalog;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the watches saw change since the last refresh took them: the names of the services to read again, or
 * "everything" when a change cannot be tied to services. Written by the watch threads, taken by the refresh thread.
 *
 * <p>Consul's indexes are per table, not per service: the catalog services query moves its index on any registration,
 * so the services watch compares answers instead. A service added, removed or whose union of tags changed is named; a
 * new index with the same services and tags (an instance added, removed or moved within a service whose tags stay
 * the same) cannot be tied to a service and means everything. The checks watch names the services of the checks that
 * appeared, disappeared or changed status; a node's own check (no service) means everything.
 */
final class CatalogChanges {

    /** Set when a change cannot be tied to services; starts set, so the first refresh reads everything. */
    private boolean everything = true;
    private Set<String> services = new HashSet<>();

    /**
     * The services to read again and forget, or null for every service.
     */
    synchronized Set<String> take() {
        Set<String> taken = everything ? null : services;
        everything = false;
        services = new HashSet<>();
        return taken;
    }

    synchronized void everything() {
        everything = true;
    }

    synchronized void services(Set<String> names) {
        services.addAll(names);
    }

    /**
     * The services the catalog answer {@code next} changed since {@code previous} (added, removed, other tags), or
     * null when the answers are equal (the caller decides whether a new index then means everything).
     */
    static Set<String> diffServices(Map<String, List<String>> previous, Map<String, List<String>> next) {
        Set<String> changed = new HashSet<>();
        next.forEach((name, tags) -> {
            if (!Objects.equals(previous.get(name), tags)) {
                changed.add(name);
            }
        });
        for (String name : previous.keySet()) {
            if (!next.containsKey(name)) {
                changed.add(name);
            }
        }
        return changed.isEmpty() ? null : changed;
    }

    /**
     * The services whose checks differ between two answers of {@code /v1/health/state/any} (a check added, removed
     * or with another status), or null when a node's own check changed (every service on it is concerned).
     */
    static Set<String> diffChecks(List<CatalogClient.CheckState> previous, List<CatalogClient.CheckState> next) {
        Map<List<String>, CatalogClient.CheckState> before = byKey(previous);
        Map<List<String>, CatalogClient.CheckState> after = byKey(next);
        Set<String> changed = new HashSet<>();
        for (Map.Entry<List<String>, CatalogClient.CheckState> e : after.entrySet()) {
            if (!e.getValue().equals(before.get(e.getKey())) && !concerns(e.getValue(), changed)) {
                return null;
            }
        }
        for (Map.Entry<List<String>, CatalogClient.CheckState> e : before.entrySet()) {
            if (!after.containsKey(e.getKey()) && !concerns(e.getValue(), changed)) {
                return null;
            }
        }
        return changed;
    }

    /** Adds the check's service to {@code changed}; false for a node check, which has none. */
    private static boolean concerns(CatalogClient.CheckState check, Set<String> changed) {
        if (check.serviceName().isEmpty()) {
            return false;
        }
        changed.add(check.serviceName());
        return true;
    }

    private static Map<List<String>, CatalogClient.CheckState> byKey(List<CatalogClient.CheckState> checks) {
        Map<List<String>, CatalogClient.CheckState> out = new HashMap<>();
        for (CatalogClient.CheckState c : checks) {
            out.put(List.of(c.node(), c.checkId()), c);
        }
        return out;
    }
}
