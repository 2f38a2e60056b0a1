package dev.proxy.provider.registrycatalog;

import dev.proxy.provider.ExplainedItem;
import java.util.List;

/**
 * Why a catalog service (or one instance of it) is or is not routed: the answer to "why isn't my service
 * discovered?".
 *
 * @param provider the provider instance ({@code registrycatalog} or {@code registrycatalog-<namespace>})
 * @param service  the Consul service name
 * @param instance {@code <id> on node <node>}, or empty when the decision was made for the whole service (from the
 *                 tags of all its instances, before any instance was read)
 * @param exposed  whether it contributes routes
 * @param reason   {@code exposed} or the exact reason it was skipped
 * @param routers  the routers it contributes to (unqualified names), empty when skipped
 */
public record Explanation(String provider, String service, String instance, boolean exposed, String reason,
                          List<String> routers) {

    public Explanation {
        routers = List.copyOf(routers);
    }

    /** As the API lists it: the service (and instance), with the namespace's provider when there are several. */
    ExplainedItem item() {
        String who = instance.isEmpty() ? service : service + " (" + instance + ")";
        String where = provider.equals(RegistryCatalogProvider.NAME) ? "" : " [" + provider + "]";
        return new ExplainedItem(who + where, exposed, reason, routers);
    }

    static Explanation skipped(String provider, String service, String instance, String reason) {
        return new Explanation(provider, service, instance, false, reason, List.of());
    }

    @Override
    public String toString() {
        String who = instance.isEmpty() ? service : service + " (" + instance + ")";
        return who + ": " + (exposed ? "exposed, routers " + String.join(", ", routers) : "skipped, " + reason);
    }
}
