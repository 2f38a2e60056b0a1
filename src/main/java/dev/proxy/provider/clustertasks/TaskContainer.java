package dev.proxy.provider.clustertasks;

import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One container of one ECS task as the builder sees it: the task's state, the container's definition (labels, port
 * mappings) and where it runs. Address and port are not decided here: {@link TaskConfigBuilder} picks them by network
 * mode.
 *
 * @param cluster         the cluster's name
 * @param taskArn         the task's ARN
 * @param group           the task's group: {@code service:<name>} for a service's tasks, {@code family:<family>} for
 *                        standalone ones
 * @param lastStatus      the task's {@code lastStatus} ({@code RUNNING}, {@code PENDING}, …)
 * @param healthStatus    the task's {@code healthStatus}: {@code HEALTHY}, {@code UNHEALTHY} or {@code UNKNOWN}
 *                        (a task whose containers define no health check is always {@code UNKNOWN})
 * @param networkMode     the task definition's network mode
 * @param container       the container's name
 * @param containerStatus the container's {@code lastStatus}, when ECS reports one
 * @param defined         whether the task definition has a definition of this container (ECS-managed containers,
 *                        such as the Service Connect proxy, have none)
 * @param labels          the definition's {@code dockerLabels}
 * @param eniAddress      the container's network interface address ({@code awsvpc}: IPv4, else IPv6)
 * @param portMappings    the definition's {@code portMappings}
 * @param networkBindings the container's {@code networkBindings} ({@code bridge}, {@code host}: the actual host
 *                        ports, dynamic ones included)
 * @param host            the container instance the task runs on; null for Fargate
 * @param invalid         why ECS's answer about this container cannot be used (a field it must have is missing); the
 *                        builder skips it with this reason. Null for a well-formed answer.
 */
public record TaskContainer(String cluster, String taskArn, String group, String lastStatus, String healthStatus,
                            NetworkMode networkMode, String container, @Nullable String containerStatus,
                            boolean defined, Map<String, String> labels, @Nullable String eniAddress,
                            List<PortMapping> portMappings, List<PortMapping> networkBindings,
                            @Nullable Host host, @Nullable String invalid) {

    public TaskContainer(String cluster, String taskArn, String group, String lastStatus, String healthStatus,
                         NetworkMode networkMode, String container, @Nullable String containerStatus,
                         boolean defined, Map<String, String> labels, @Nullable String eniAddress,
                         List<PortMapping> portMappings, List<PortMapping> networkBindings, @Nullable Host host) {
        this(cluster, taskArn, group, lastStatus, healthStatus, networkMode, container, containerStatus, defined, labels,
                eniAddress, portMappings, networkBindings, host, null);
    }

    public TaskContainer {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(taskArn, "taskArn");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(lastStatus, "lastStatus");
        Objects.requireNonNull(healthStatus, "healthStatus");
        Objects.requireNonNull(networkMode, "networkMode");
        Objects.requireNonNull(container, "container");
        labels = Map.copyOf(labels);
        portMappings = List.copyOf(portMappings);
        networkBindings = List.copyOf(networkBindings);
    }

    /** The task's id: the last part of its ARN. */
    public String taskId() {
        return taskArn.substring(taskArn.lastIndexOf('/') + 1);
    }

    /** A task definition's network mode; {@code bridge} when the definition names none (ECS's default on EC2). */
    public enum NetworkMode {
        AWSVPC, BRIDGE, HOST, NONE;

        public static NetworkMode of(@Nullable String mode) {
            if (mode == null || mode.isBlank()) {
                return BRIDGE;
            }
            return switch (mode.toLowerCase(Locale.ROOT)) {
                case "awsvpc" -> AWSVPC;
                case "host" -> HOST;
                case "none" -> NONE;
                // Windows' "nat" (and "default") publish host ports like bridge
                default -> BRIDGE;
            };
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A port mapping of a container definition or a network binding of a running container.
     *
     * @param hostPort 0 when not given (awsvpc: the container port; bridge definitions: a dynamic host port)
     */
    public record PortMapping(int containerPort, int hostPort, String protocol) {

        public PortMapping {
            protocol = protocol == null || protocol.isBlank() ? "tcp" : protocol.toLowerCase(Locale.ROOT);
        }

        public boolean isTcp() {
            return protocol.equals("tcp");
        }
    }

    /**
     * The container instance a task runs on.
     *
     * @param containerInstanceArn its ARN
     * @param instanceId           its EC2 instance id ({@code i-…}) or, for ECS Anywhere, its SSM managed instance id
     *                             ({@code mi-…}); empty when ECS did not say
     * @param address              its private IP address (EC2) or the IP address SSM reports (ECS Anywhere); null
     *                             when unknown
     * @param unavailable          why {@code address} is null, when the fetch knows (instance not found, stopped)
     */
    public record Host(String containerInstanceArn, String instanceId, @Nullable String address,
                       @Nullable String unavailable) {

        public static Host at(String containerInstanceArn, String instanceId, String address) {
            return new Host(containerInstanceArn, instanceId, address, null);
        }

        /** An ECS Anywhere instance (an SSM managed instance, {@code mi-…}). */
        public boolean external() {
            return instanceId.startsWith("mi-");
        }
    }
}
