package dev.proxy.provider.clustertasks;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.config.label.Configs;
import dev.proxy.provider.clustertasks.TaskContainer.Host;
import dev.proxy.provider.clustertasks.TaskContainer.NetworkMode;
import dev.proxy.provider.clustertasks.TaskContainer.PortMapping;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Test builders of task containers: the usual case by default, one wither per difference, so table rows stay short. */
final class Tasks {

    static final String CLUSTER = "prod";
    static final String EC2_IP = "127.0.1.1";
    static final String SSM_IP = "127.0.2.1";

    private Tasks() {
    }

    /** The provider's settings from {@code key=value} flags, e.g. {@code exposedByDefault=false}. */
    static ClusterTasksConfig settings(String... flags) {
        return RecordDecoder.decode(ClusterTasksConfig.class,
                CommandLineEntries.fromFlags(Arrays.stream(flags).map(f -> "--" + f).toList()));
    }

    static String arn(String taskId) {
        return "arn:aws:ecs:us-east-1:123456789012:task/" + CLUSTER + "/" + taskId;
    }

    /** Container {@code app} of Fargate task {@code id} in service {@code web}: awsvpc at 127.0.0.10, port 80. */
    static Builder fargate(String id) {
        return new Builder(id);
    }

    /** Container {@code app} of a bridge task on EC2 instance {@code i-1} (127.0.1.1): container port 80 bound to 32768. */
    static Builder bridge(String id) {
        return new Builder(id).mode(NetworkMode.BRIDGE).eni(null).mappings(mapping(80, 0))
                .bindings(mapping(80, 32768)).host(Host.at("arn:aws:ecs:us-east-1:123456789012:container-instance/prod/ci-1", "i-1", EC2_IP));
    }

    /** Container {@code app} of a host-mode task on EC2 instance {@code i-1}: port 8080. */
    static Builder hostMode(String id) {
        return bridge(id).mode(NetworkMode.HOST).mappings(mapping(8080, 8080)).bindings(mapping(8080, 8080));
    }

    /** Container {@code app} of a bridge task on ECS Anywhere instance {@code mi-1} (127.0.2.1): 80 bound to 32768. */
    static Builder anywhere(String id) {
        return bridge(id).host(Host.at("arn:aws:ecs:us-east-1:123456789012:container-instance/prod/ci-2", "mi-1", SSM_IP));
    }

    static PortMapping mapping(int containerPort, int hostPort) {
        return new PortMapping(containerPort, hostPort, "tcp");
    }

    static PortMapping udp(int containerPort, int hostPort) {
        return new PortMapping(containerPort, hostPort, "udp");
    }

    static List<TaskContainer> list(Builder... builders) {
        List<TaskContainer> out = new ArrayList<>();
        for (Builder b : builders) {
            out.add(b.build());
        }
        return out;
    }

    static final class Builder {
        private final String id;
        private String group = "service:web";
        private String lastStatus = "RUNNING";
        private String health = "UNKNOWN";
        private NetworkMode mode = NetworkMode.AWSVPC;
        private String container = "app";
        private @Nullable String containerStatus = "RUNNING";
        private boolean defined = true;
        private Map<String, String> labels = Map.of();
        private @Nullable String eni = "127.0.0.10";
        private List<PortMapping> mappings = List.of(mapping(80, 80));
        private List<PortMapping> bindings = List.of();
        private @Nullable Host host;

        Builder(String id) {
            this.id = id;
        }

        Builder group(String g) {
            group = g;
            return this;
        }

        Builder status(String s) {
            lastStatus = s;
            return this;
        }

        Builder health(String h) {
            health = h;
            return this;
        }

        Builder mode(NetworkMode m) {
            mode = m;
            return this;
        }

        Builder container(String name) {
            container = name;
            return this;
        }

        Builder containerStatus(@Nullable String s) {
            containerStatus = s;
            return this;
        }

        Builder undefined() {
            defined = false;
            labels = Map.of();
            mappings = List.of();
            return this;
        }

        Builder labels(String... pairs) {
            labels = Configs.labels(pairs);
            return this;
        }

        Builder eni(@Nullable String address) {
            eni = address;
            return this;
        }

        Builder mappings(PortMapping... m) {
            mappings = List.of(m);
            return this;
        }

        Builder bindings(PortMapping... b) {
            bindings = List.of(b);
            return this;
        }

        Builder host(@Nullable Host h) {
            host = h;
            return this;
        }

        TaskContainer build() {
            return new TaskContainer(CLUSTER, arn(id), group, lastStatus, health, mode, container, containerStatus,
                    defined, labels, eni, mappings, bindings, host);
        }
    }
}
