package dev.proxy.provider.clustertasks;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.config.label.BuildResult;
import dev.proxy.config.label.DefaultRule;
import dev.proxy.config.label.Item;
import dev.proxy.config.label.ItemConfig;
import dev.proxy.config.label.ItemDefaults;
import dev.proxy.config.label.ItemMerger;
import dev.proxy.config.label.LabelDecoder;
import dev.proxy.config.label.Problem;
import dev.proxy.provider.clustertasks.TaskContainer.NetworkMode;
import dev.proxy.provider.clustertasks.TaskContainer.PortMapping;
import dev.proxy.rules.LabelConstraint;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntUnaryOperator;

/**
 * Builds the {@code clusterTasks} configuration from task containers (pure: no I/O, no logging), one item per
 * (task, container), in cluster, task and container order:
 * <ol>
 *   <li>a container is kept when it has a definition, is enabled ({@code exposedByDefault}, or label
 *       {@code <prefix>.enable}), matches {@code constraints}, its task is {@code RUNNING}, and its task is not
 *       {@code UNHEALTHY} ({@code healthyTasksOnly}: is {@code HEALTHY});</li>
 *   <li>its address and ports follow the network mode: {@code awsvpc} the container's network interface address
 *       and the definition's port mappings; {@code bridge} and {@code host} the container instance's address (EC2
 *       private IP; ECS Anywhere: the address SSM reports, with {@code ecsAnywhere}) and the container's network
 *       bindings (the actual host ports, dynamic ones included);</li>
 *   <li>the port is the lowest mapped TCP host port, unless label {@code …loadbalancer.server.port} names one: a
 *       container port given there means the host port it is mapped to; no port at all skips the container;</li>
 *   <li>its labels go through the shared decoder and per-item defaults (service and router named from the task
 *       group and container name, normalized: {@code service:web} + {@code app} gives {@code service-web-app}),
 *       then every item is merged (same-named services share servers, conflicts are left out).</li>
 * </ol>
 * Every container comes back with an {@link Explanation}.
 */
public final class TaskConfigBuilder {

    /** The configuration, one explanation per container, and the resources left out (for the log). */
    public record Built(DynamicConfig config, List<Explanation> explanations, List<String> errors) {
        public Built {
            explanations = List.copyOf(explanations);
            errors = List.copyOf(errors);
        }
    }

    /** Why a container is not exposed. */
    private static final class Skip extends Exception {
        Skip(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Where a container is reached: an address and its TCP port mappings (container port → host port). */
    private record Target(String address, List<PortMapping> ports) {
    }

    private static final Comparator<TaskContainer> ORDER = Comparator.comparing(TaskContainer::cluster)
            .thenComparing(TaskContainer::taskArn).thenComparing(TaskContainer::container);

    private final String prefix;
    private final String enableKey;
    private final boolean exposedByDefault;
    private final LabelConstraint constraints;
    private final boolean healthyTasksOnly;
    private final boolean ecsAnywhere;
    private final ItemDefaults defaults;

    public TaskConfigBuilder(ClusterTasksConfig config) {
        this.prefix = config.prefix();
        this.enableKey = config.prefix() + ".enable";
        this.exposedByDefault = config.exposedByDefault();
        this.constraints = LabelConstraint.compile(config.constraints());
        this.healthyTasksOnly = config.healthyTasksOnly();
        this.ecsAnywhere = config.ecsAnywhere();
        this.defaults = new ItemDefaults(DefaultRule.compile(config.defaultRule()));
    }

    public Built build(List<TaskContainer> containers) {
        List<TaskContainer> sorted = containers.stream().sorted(ORDER).toList();
        List<String> errors = new ArrayList<>();
        List<ItemConfig> configs = new ArrayList<>();
        Map<String, Explained> byOrigin = new LinkedHashMap<>();
        for (TaskContainer c : sorted) {
            String origin = "ECS task " + c.taskId() + " container " + c.container();
            Explained explained = new Explained(c, name(c));
            byOrigin.put(origin, explained);
            try {
                BuildResult built = item(c, explained.name, origin);
                configs.add(new ItemConfig(origin, built.config()));
                explained.expose(built.config());
                for (Problem p : built.problems()) {
                    errors.add(p.message());
                    explained.notes.add(p.message());
                }
            } catch (Skip skip) {
                explained.skip(skip.getMessage());
            } catch (ConfigException invalid) {
                errors.add(invalid.getMessage());
                explained.skip(invalid.getMessage());
            }
        }
        BuildResult merged = ItemMerger.merge(configs);
        for (Problem p : merged.problems()) {
            errors.add(p.message());
            for (String origin : p.origins()) {
                Explained e = byOrigin.get(origin);
                if (e != null) {
                    e.notes.add(p.resource() + " left out: defined differently by " + String.join(", ", p.origins()));
                }
            }
        }
        return new Built(merged.config(), byOrigin.values().stream().map(Explained::explanation).toList(), errors);
    }

    private BuildResult item(TaskContainer c, String name, String origin) throws Skip {
        if (c.invalid() != null) {
            throw new Skip(c.invalid());
        }
        if (!c.defined()) {
            throw new Skip("no container definition in the task definition (an ECS-managed container, such as the"
                    + " Service Connect proxy)");
        }
        checkEnabled(c.labels());
        if (!constraints.test(c.labels())) {
            throw new Skip("labels do not match constraints " + constraints);
        }
        if (!c.lastStatus().equals("RUNNING")) {
            throw new Skip("task is " + c.lastStatus() + ", not RUNNING");
        }
        if (c.containerStatus() != null && !c.containerStatus().equals("RUNNING")) {
            throw new Skip("container is " + c.containerStatus() + ", not RUNNING");
        }
        if (healthyTasksOnly && !c.healthStatus().equals("HEALTHY")) {
            throw new Skip("task health is " + c.healthStatus() + " and healthyTasksOnly admits only HEALTHY tasks"
                    + (c.healthStatus().equals("UNKNOWN") ? " (a task without container health checks is UNKNOWN)" : ""));
        }
        if (c.healthStatus().equals("UNHEALTHY")) {
            throw new Skip("task is UNHEALTHY");
        }
        Target target = target(c);
        OptionalInt lowest = target.ports().stream().mapToInt(PortMapping::hostPort).min();
        Integer port = lowest.isPresent() ? lowest.getAsInt() : null;
        Item item = new Item(origin, name, target.address(), port, name, c.labels(), mapper(target.ports()));
        DynamicConfig decoded = LabelDecoder.decode(c.labels(), prefix, origin + " label");
        return defaults.apply(decoded, item);
    }

    private void checkEnabled(Map<String, String> labels) throws Skip {
        String value = null;
        String key = enableKey;
        for (Map.Entry<String, String> label : labels.entrySet()) {
            if (label.getKey().equalsIgnoreCase(enableKey)) {
                key = label.getKey();
                value = label.getValue().trim().toLowerCase(Locale.ROOT);
            }
        }
        if (value == null) {
            if (!exposedByDefault) {
                throw new Skip("not enabled: exposedByDefault is false and there is no label " + enableKey + "=true");
            }
        } else if (value.equals("false")) {
            throw new Skip("disabled by label " + key + "=false");
        } else if (!value.equals("true")) {
            throw new Skip("label " + key + " must be true or false, not \"" + LabelDecoder.shown(value, 50) + "\"");
        }
    }

    private Target target(TaskContainer c) throws Skip {
        NetworkMode mode = c.networkMode();
        if (mode == NetworkMode.NONE) {
            throw new Skip("network mode none: the task has no network");
        }
        if (mode == NetworkMode.AWSVPC) {
            if (c.eniAddress() == null || c.eniAddress().isBlank()) {
                throw new Skip("awsvpc network mode but the container has no network interface address");
            }
            // In awsvpc the host port is the container port (ECS fills hostPort in with it, or leaves it 0).
            return new Target(c.eniAddress(), tcp(c.portMappings().stream()
                    .map(m -> new PortMapping(m.containerPort(), m.hostPort() > 0 ? m.hostPort() : m.containerPort(),
                            m.protocol()))
                    .toList()));
        }
        TaskContainer.Host host = c.host();
        if (host == null) {
            throw new Skip(mode + " network mode but the task is not on a container instance");
        }
        if (host.external() && !ecsAnywhere) {
            throw new Skip("runs on ECS Anywhere instance " + host.instanceId() + ": set ecsAnywhere to discover it");
        }
        if (host.address() == null || host.address().isBlank()) {
            throw new Skip(host.unavailable() != null ? host.unavailable()
                    : "no address known for container instance " + host.containerInstanceArn());
        }
        List<PortMapping> ports = c.networkBindings();
        if (ports.isEmpty() && mode == NetworkMode.HOST) {
            // host mode publishes the container ports themselves
            ports = c.portMappings().stream()
                    .map(m -> new PortMapping(m.containerPort(), m.containerPort(), m.protocol())).toList();
        }
        return new Target(host.address(), tcp(ports));
    }

    /** The TCP mappings with a usable host port: UDP ports are no HTTP backends. */
    private static List<PortMapping> tcp(List<PortMapping> ports) {
        return ports.stream().filter(PortMapping::isTcp).filter(m -> m.hostPort() >= 1 && m.hostPort() <= 65535).toList();
    }

    /** A port label naming a container port means the host port it is mapped to; other ports are used as given. */
    private static IntUnaryOperator mapper(List<PortMapping> ports) {
        return port -> ports.stream().filter(m -> m.containerPort() == port).mapToInt(PortMapping::hostPort)
                .findFirst().orElse(port);
    }

    /** The task group with its first {@code :} made {@code -}, then {@code -<container>}, normalized. */
    static String name(TaskContainer c) {
        return DefaultRule.normalize(c.group().replaceFirst(":", "-") + "-" + c.container());
    }

    /** Collects what became of one container. */
    private static final class Explained {
        final TaskContainer container;
        final String name;
        final List<String> notes = new ArrayList<>();
        @Nullable String skipped;
        @Nullable DynamicConfig config;

        Explained(TaskContainer container, String name) {
            this.container = container;
            this.name = name;
        }

        void expose(DynamicConfig built) {
            config = built;
        }

        void skip(String reason) {
            skipped = reason;
        }

        Explanation explanation() {
            TaskContainer c = container;
            if (skipped != null || config == null) {
                return new Explanation(c.cluster(), c.taskId(), c.container(), name, false,
                        skipped == null ? "skipped" : skipped);
            }
            StringBuilder detail = new StringBuilder()
                    .append("routers ").append(names(config.http().routers()))
                    .append("; services ").append(names(config.http().services()));
            if (!config.http().middlewares().isEmpty()) {
                detail.append("; middlewares ").append(names(config.http().middlewares()));
            }
            notes.forEach(n -> detail.append("; ").append(n));
            return new Explanation(c.cluster(), c.taskId(), c.container(), name, true, detail.toString());
        }

        private static String names(Map<String, ?> resources) {
            return resources.isEmpty() ? "(none)" : String.join(", ", resources.keySet());
        }
    }
}
