package dev.proxy.provider.registrycatalog;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One service instance from Consul's health endpoints, as the builder needs it.
 *
 * @param name       the Consul service name (for a connect sidecar: the service it fronts)
 * @param id         the instance id
 * @param node       the node it is registered on
 * @param address    the service address, or the node's address when the service has none
 * @param port       the service port (0 when none)
 * @param tags       the instance's tags, in registration order
 * @param meta       the instance's metadata
 * @param namespace  the Consul namespace ({@code default} on the open-source edition)
 * @param datacenter the datacenter of its node
 * @param status     the aggregated status of all its checks (node and service): {@code passing}, {@code warning},
 *                   {@code critical} or {@code maintenance}; see {@link CheckStatus}
 * @param connect    read through {@code /v1/health/connect/<name>}: reached over Connect mTLS
 */
public record CatalogItem(String name, String id, String node, String address, int port, List<String> tags,
                          Map<String, String> meta, String namespace, String datacenter, String status,
                          boolean connect) {

    public CatalogItem {
        Objects.requireNonNull(name, "name");
        tags = List.copyOf(tags);
        meta = Map.copyOf(meta);
        namespace = namespace.isEmpty() ? "default" : namespace;
    }

    /** Names the instance in logs, problems and explanations. */
    public String description() {
        return "consul service " + name + " instance " + id + " on node " + node;
    }
}
