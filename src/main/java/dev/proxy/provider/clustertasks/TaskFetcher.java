package dev.proxy.provider.clustertasks;

import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.config.label.LabelDecoder;
import dev.proxy.provider.clustertasks.TaskContainer.Host;
import dev.proxy.provider.clustertasks.TaskContainer.NetworkMode;
import dev.proxy.provider.clustertasks.TaskContainer.PortMapping;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import software.amazon.awssdk.services.ecs.model.Attachment;
import software.amazon.awssdk.services.ecs.model.Container;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.ContainerInstance;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.NetworkBinding;
import software.amazon.awssdk.services.ecs.model.NetworkInterface;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;

/**
 * One refresh of the {@code clusterTasks} provider: reads the watched clusters' running tasks with their container
 * definitions and hosts, and returns one {@link TaskContainer} per (task, container). Not thread-safe: the polling
 * supervisor calls it from one thread.
 *
 * <p>Per cluster: {@code ListTasks} (every page), {@code DescribeTasks} of the listed tasks not known from an earlier
 * refresh (see {@link DescribedTasks}: new, not yet {@code RUNNING}, or older than the staleness bound; every listed
 * task when {@code healthyTasksOnly}) per {@value EcsApi#BATCH} tasks (up to
 * {@value #PARALLEL_DESCRIBES} batches at once: ECS serves them concurrently, so 1,000 tasks cost about the time of
 * three calls instead of ten), then for
 * container instances not seen before {@code DescribeContainerInstances} per {@value EcsApi#BATCH} and
 * {@code ec2:DescribeInstances} ({@code i-…}) or {@code ssm:DescribeInstanceInformation} ({@code mi-…}, with
 * {@code ecsAnywhere}), and {@code DescribeTaskDefinition} for task definitions not seen before.
 *
 * <p>Caches, so that a steady cluster costs only the list calls:
 * <ul>
 *   <li>running tasks' descriptions by task ARN ({@link DescribedTasks}), dropped when the task is no longer
 *       listed;</li>
 *   <li>task definitions by <em>task-definition</em> ARN (it names one immutable revision): a new task of a known
 *       revision costs nothing (Traefik keys by task ARN, so every new task costs a call: its issue #13884);</li>
 *   <li>container instances by ARN (their instance id never changes), and instance addresses by instance id, kept
 *       only once known (a running EC2 instance's primary private address never changes), so an instance not found
 *       or not running is asked about again at the next refresh.</li>
 * </ul>
 * Entries not used by a successful refresh are dropped. Any failed call fails the whole refresh (all or nothing):
 * a partial answer would drop the routes of the tasks it missed; the batches still running are then cancelled.
 *
 * <p>Why not all batches at once: ECS throttles DescribeTasks per account and region with a token bucket that every
 * proxy (and every other client) of the account shares; four at once bounds the burst one refresh makes.
 */
final class TaskFetcher implements AutoCloseable {

    /** How many {@code DescribeTasks} batches of one refresh are in flight at once. */
    static final int PARALLEL_DESCRIBES = 4;

    /** The parts of a task definition the provider reads. */
    private record Definition(String family, NetworkMode networkMode, Map<String, ContainerDefinition> containers) {
    }

    private final EcsApi api;
    private final ClusterTasksConfig config;
    private final Map<String, Definition> definitions = new HashMap<>();
    private final Map<String, String> instanceIds = new HashMap<>();
    private final Map<String, String> addresses = new HashMap<>();
    private final DescribedTasks described;
    /** Runs the DescribeTasks batches; daemon threads, made when first needed, ended by {@link #close()}. */
    private final ExecutorService describers = new ThreadPoolExecutor(PARALLEL_DESCRIBES, PARALLEL_DESCRIBES,
            30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "proxy-provider-clustertasks-describe");
                t.setDaemon(true);
                return t;
            });

    TaskFetcher(EcsApi api, ClusterTasksConfig config) {
        this(api, config, System::nanoTime);
    }

    /** With the monotonic clock (nanoseconds) that ages the {@link DescribedTasks} entries. */
    TaskFetcher(EcsApi api, ClusterTasksConfig config, LongSupplier nanoClock) {
        this.api = api;
        this.config = config;
        this.described = new DescribedTasks(config.refreshSeconds(), nanoClock);
        ((ThreadPoolExecutor) describers).allowCoreThreadTimeOut(true); // idle between refreshes: no threads kept
    }

    @Override
    public void close() {
        describers.shutdownNow();
    }

    List<TaskContainer> fetch() {
        List<String> clusters = config.autoDiscoverClusters() ? api.listClusters() : config.clusters();
        Set<String> usedDefinitions = new HashSet<>();
        Set<String> usedInstances = new HashSet<>();
        Map<String, Host> hosts = new HashMap<>();
        List<TaskContainer> out = new ArrayList<>();
        long now = described.now();
        DescribedTasks.Next next = new DescribedTasks.Next();
        for (String cluster : clusters) {
            List<Task> tasks = tasks(cluster, api.listRunningTasks(cluster), now, next);
            resolveHosts(cluster, tasks, hosts);
            String clusterName = nameOf(cluster);
            for (Task task : tasks) {
                Host host = task.containerInstanceArn() == null ? null : hosts.get(task.containerInstanceArn());
                if (host != null) {
                    usedInstances.add(host.containerInstanceArn());
                }
                String malformed = malformed(task);
                if (malformed != null) {
                    // One task ECS describes without the fields every task has is skipped, not the whole refresh:
                    // a single odd answer must not freeze discovery for every other task.
                    out.add(invalid(clusterName, task, malformed));
                    continue;
                }
                Definition definition = definition(task.taskDefinitionArn());
                usedDefinitions.add(task.taskDefinitionArn());
                for (Container container : task.containers()) {
                    out.add(container.name() == null || container.name().isEmpty()
                            ? invalid(clusterName, task, "ECS lists a container without a name")
                            : item(clusterName, task, definition, container, host));
                }
            }
        }
        definitions.keySet().retainAll(usedDefinitions);
        instanceIds.keySet().retainAll(usedInstances);
        Set<String> usedIds = new HashSet<>(instanceIds.values());
        addresses.keySet().retainAll(usedIds);
        described.replace(next); // only now: a failed refresh leaves the known descriptions as they were
        return out;
    }

    /**
     * A cluster's listed tasks: the fresh ones from {@link #described}, the others described now (every one when
     * {@code healthyTasksOnly}: a task's health can change at any time). In listing order, then any task ECS
     * answered under an ARN not listed, and any answered without an ARN (reported as malformed). Adds to
     * {@code next} what the next refresh may reuse: running, well-formed tasks, with the time they were described.
     */
    private List<Task> tasks(String cluster, List<String> arns, long now, DescribedTasks.Next next) {
        Set<String> listed = new LinkedHashSet<>(arns);
        Map<String, Task> known = new HashMap<>();
        List<String> ask = new ArrayList<>();
        for (String arn : listed) {
            Task task = config.healthyTasksOnly() ? null : described.fresh(arn, now);
            if (task == null) {
                ask.add(arn);
            } else {
                known.put(arn, task);
                next.put(task, described.describedAt(arn));
            }
        }
        Map<String, Task> answered = new LinkedHashMap<>();
        List<Task> withoutArn = new ArrayList<>();
        for (Task task : describeTasks(cluster, ask)) {
            if (task.taskArn() == null || task.taskArn().isEmpty()) {
                withoutArn.add(task);
            } else if (!known.containsKey(task.taskArn())) { // one not asked for: the kept one stands
                answered.putIfAbsent(task.taskArn(), task);
            }
        }
        List<Task> tasks = new ArrayList<>(listed.size());
        for (String arn : listed) {
            Task task = known.containsKey(arn) ? known.get(arn) : answered.remove(arn);
            if (task != null) {
                tasks.add(task);
            }
        }
        tasks.addAll(answered.values());
        tasks.addAll(withoutArn);
        if (!config.healthyTasksOnly()) {
            for (Task task : tasks) {
                if (!known.containsKey(task.taskArn()) && DescribedTasks.keepable(task) && malformed(task) == null) {
                    next.put(task, now);
                }
            }
        }
        return tasks;
    }

    /** How many task descriptions the next refresh may reuse. */
    int describedTasks() {
        return described.size();
    }

    /**
     * The tasks, in the order of {@code arns}: one batch on this thread, more on {@link #describers} (at most
     * {@value #PARALLEL_DESCRIBES} at once). The first failure, in batch order, fails the whole call and cancels the
     * batches not done.
     */
    private List<Task> describeTasks(String cluster, List<String> arns) {
        List<List<String>> batches = batches(arns, EcsApi.BATCH);
        if (batches.size() <= 1) {
            return batches.isEmpty() ? List.of() : api.describeTasks(cluster, batches.get(0));
        }
        List<Future<List<Task>>> pending = new ArrayList<>();
        for (List<String> batch : batches) {
            pending.add(describers.submit(() -> api.describeTasks(cluster, batch)));
        }
        List<Task> tasks = new ArrayList<>(arns.size());
        try {
            for (Future<List<Task>> batch : pending) {
                tasks.addAll(batch.get());
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new EcsApiException("ecs:DescribeTasks", EcsApiException.Kind.FAILED,
                    "ecs:DescribeTasks failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EcsApiException("ecs:DescribeTasks", EcsApiException.Kind.FAILED,
                    "ecs:DescribeTasks interrupted", e);
        } finally {
            pending.forEach(f -> f.cancel(true)); // no-op for the batches done
        }
        return tasks;
    }

    /** Finds the hosts of a cluster's tasks: container instances first seen are described, then their addresses. */
    private void resolveHosts(String cluster, List<Task> tasks, Map<String, Host> hosts) {
        Set<String> unknown = new LinkedHashSet<>();
        for (Task task : tasks) {
            String arn = task.containerInstanceArn();
            if (arn != null && !arn.isEmpty() && !instanceIds.containsKey(arn)) {
                unknown.add(arn);
            }
        }
        for (List<String> batch : batches(List.copyOf(unknown), EcsApi.BATCH)) {
            for (ContainerInstance ci : api.describeContainerInstances(cluster, batch)) {
                if (ci.ec2InstanceId() != null && !ci.ec2InstanceId().isEmpty()) {
                    instanceIds.put(ci.containerInstanceArn(), ci.ec2InstanceId());
                }
            }
        }
        Set<String> ec2 = new LinkedHashSet<>();
        Set<String> managed = new LinkedHashSet<>();
        Map<String, String> unavailable = new HashMap<>();
        for (Task task : tasks) {
            String id = task.containerInstanceArn() == null ? null : instanceIds.get(task.containerInstanceArn());
            if (id != null && !addresses.containsKey(id)) {
                if (id.startsWith("mi-")) {
                    if (config.ecsAnywhere()) {
                        managed.add(id);
                    }
                } else {
                    ec2.add(id);
                }
            }
        }
        for (List<String> batch : batches(List.copyOf(ec2), EcsApi.BATCH)) {
            Map<String, EcsApi.Ec2Instance> found = api.describeEc2Instances(batch);
            for (String id : batch) {
                EcsApi.Ec2Instance instance = found.get(id);
                if (instance == null) {
                    unavailable.put(id, "EC2 instance " + id + " not found");
                } else if (!instance.state().equals("running")) {
                    unavailable.put(id, "EC2 instance " + id + " is " + instance.state() + ", not running");
                } else if (instance.privateIp() == null || instance.privateIp().isEmpty()) {
                    unavailable.put(id, "EC2 instance " + id + " has no private IP address");
                } else {
                    addresses.put(id, instance.privateIp());
                }
            }
        }
        for (List<String> batch : batches(List.copyOf(managed), SdkEcsApi.SSM_BATCH)) {
            Map<String, String> found = api.describeManagedInstances(batch);
            for (String id : batch) {
                String ip = found.get(id);
                if (ip == null || ip.isEmpty()) {
                    unavailable.put(id, "ECS Anywhere instance " + id + " has no IP address in SSM");
                } else {
                    addresses.put(id, ip);
                }
            }
        }
        for (Task task : tasks) {
            String arn = task.containerInstanceArn();
            if (arn == null || arn.isEmpty() || hosts.containsKey(arn)) {
                continue;
            }
            String id = instanceIds.get(arn);
            hosts.put(arn, id == null
                    ? new Host(arn, "", null, "container instance " + arn + " not found")
                    : new Host(arn, id, addresses.get(id), unavailable.get(id)));
        }
    }

    /** Why a described task cannot be read, or null: the fields ECS always sends for a task. */
    private static @Nullable String malformed(Task task) {
        if (task.taskArn() == null || task.taskArn().isEmpty()) {
            return "ECS describes a task without a taskArn";
        }
        if (task.taskDefinitionArn() == null || task.taskDefinitionArn().isEmpty()) {
            return "ECS describes the task without a taskDefinitionArn";
        }
        if (task.containers().isEmpty()) {
            return "ECS describes the task without containers";
        }
        return null;
    }

    /** A placeholder item for a task (or container) that is skipped with {@code reason}. */
    private static TaskContainer invalid(String cluster, Task task, String reason) {
        String arn = task.taskArn() == null || task.taskArn().isEmpty() ? "(no taskArn)" : task.taskArn();
        return new TaskContainer(cluster, arn, task.group() == null ? "" : task.group(), orUnknown(task.lastStatus()),
                "UNKNOWN", NetworkMode.BRIDGE, "", null, false, Map.of(), null, List.of(), List.of(), null,
                LabelDecoder.shown(reason, 200));
    }

    private Definition definition(String arn) {
        Definition known = definitions.get(arn);
        if (known != null) {
            return known;
        }
        TaskDefinition d = api.describeTaskDefinition(arn);
        if (d == null) {
            throw new EcsApiException("ecs:DescribeTaskDefinition", EcsApiException.Kind.FAILED,
                    "ecs:DescribeTaskDefinition answered without a taskDefinition for " + LabelDecoder.shown(arn, 200), null);
        }
        Map<String, ContainerDefinition> containers = new HashMap<>();
        d.containerDefinitions().forEach(c -> containers.put(c.name(), c));
        Definition definition = new Definition(d.family() == null ? "" : d.family(),
                NetworkMode.of(d.networkModeAsString()), containers);
        definitions.put(arn, definition);
        return definition;
    }

    private static TaskContainer item(String cluster, Task task, Definition definition, Container container,
                                      @Nullable Host host) {
        ContainerDefinition def = definition.containers().get(container.name());
        List<PortMapping> mappings = def == null ? List.of() : def.portMappings().stream()
                .map(m -> new PortMapping(orZero(m.containerPort()), orZero(m.hostPort()), m.protocolAsString()))
                .toList();
        List<PortMapping> bindings = container.networkBindings().stream()
                .map((NetworkBinding b) -> new PortMapping(orZero(b.containerPort()), orZero(b.hostPort()),
                        b.protocolAsString()))
                .toList();
        String group = task.group() == null || task.group().isBlank() ? "family:" + definition.family() : task.group();
        return new TaskContainer(cluster, task.taskArn(), group, orUnknown(task.lastStatus()),
                orUnknown(task.healthStatusAsString()), definition.networkMode(), container.name(),
                container.lastStatus(), def != null, def == null ? Map.of() : labels(def.dockerLabels()),
                eniAddress(task, container), mappings, bindings, host);
    }

    /** The container's network interface address; the task's ENI attachment when the container does not say. */
    private static @Nullable String eniAddress(Task task, Container container) {
        for (NetworkInterface ni : container.networkInterfaces()) {
            if (ni.privateIpv4Address() != null && !ni.privateIpv4Address().isEmpty()) {
                return ni.privateIpv4Address();
            }
            if (ni.ipv6Address() != null && !ni.ipv6Address().isEmpty()) {
                return ni.ipv6Address();
            }
        }
        for (Attachment a : task.attachments()) {
            for (KeyValuePair detail : a.details()) {
                if ("privateIPv4Address".equals(detail.name()) && detail.value() != null && !detail.value().isEmpty()) {
                    return detail.value();
                }
            }
        }
        return null;
    }

    /** The docker labels without null keys or values (JSON {@code null} in an answer), which a label never is. */
    private static Map<String, String> labels(Map<String, String> dockerLabels) {
        Map<String, String> out = new HashMap<>();
        dockerLabels.forEach((k, v) -> {
            if (k != null && v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** A cluster's name from its name or ARN ({@code arn:aws:ecs:region:account:cluster/name}). */
    static String nameOf(String cluster) {
        int slash = cluster.lastIndexOf('/');
        return cluster.startsWith("arn:") && slash >= 0 ? cluster.substring(slash + 1) : cluster;
    }

    /** {@code items} in consecutive batches of at most {@code size}; none for none. */
    static <T> List<List<T>> batches(List<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int from = 0; from < items.size(); from += size) {
            out.add(List.copyOf(items.subList(from, Math.min(items.size(), from + size))));
        }
        return out;
    }

    private static int orZero(@Nullable Integer port) {
        return port == null ? 0 : port;
    }

    private static String orUnknown(@Nullable String status) {
        return status == null || status.isEmpty() ? "UNKNOWN" : status;
    }
}
