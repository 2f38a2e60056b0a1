package dev.proxy.config.label;

import io.micronaut.core.annotation.Nullable;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * What {@link ItemDefaults} needs to know about one discovered item (a Consul service instance, an ECS task
 * container). Provider-specific address and port logic happens before: the provider passes the address to reach and
 * the port to use when no label names one, and a hook for ports named by labels.
 *
 * @param description names the item in error messages, e.g. {@code consul service web-1}
 * @param defaultName the name of the default service and router, already normalized (and made unique by the
 *                    provider where needed, e.g. Consul canaries)
 * @param address     IP literal (IPv6 with or without brackets) or host name of the item
 * @param port        the port when no {@code loadbalancer.server.port} label is given; {@code null} (or 0) when the
 *                    item has none
 * @param ruleName    {@code .Name} for the default rule (Consul: the raw service name; ECS: the normalized name)
 * @param ruleLabels  {@code .Labels} for the default rule (Consul: the prefixed tags; ECS: all docker labels)
 * @param portMapper  applied to a port given by label, e.g. ECS: a label naming a container port means the mapped
 *                    host port
 */
public record Item(String description, String defaultName, String address, @Nullable Integer port,
                   String ruleName, Map<String, String> ruleLabels, IntUnaryOperator portMapper) {

    public Item {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(defaultName, "defaultName");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(ruleName, "ruleName");
        ruleLabels = Map.copyOf(ruleLabels);
        Objects.requireNonNull(portMapper, "portMapper");
    }

    /** An item whose default rule sees {@code defaultName} and no labels, and whose label ports are used as given. */
    public Item(String description, String defaultName, String address, @Nullable Integer port) {
        this(description, defaultName, address, port, defaultName, Map.of(), IntUnaryOperator.identity());
    }

    public Item withRuleData(String name, Map<String, String> labels) {
        return new Item(description, defaultName, address, port, name, labels, portMapper);
    }

    public Item withPortMapper(IntUnaryOperator mapper) {
        return new Item(description, defaultName, address, port, ruleName, ruleLabels, mapper);
    }
}
