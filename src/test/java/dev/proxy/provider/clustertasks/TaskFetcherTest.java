package dev.proxy.provider.clustertasks;

import static dev.proxy.provider.clustertasks.Tasks.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.provider.clustertasks.TaskContainer.Host;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.ecs.model.Container;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.ContainerInstance;
import software.amazon.awssdk.services.ecs.model.NetworkBinding;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;

/** One refresh's calls and caches, against an in-memory {@link EcsApi} that counts calls by operation. */
class TaskFetcherTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);

    static Stream<Arguments> sizes() {
        return Stream.of(arguments(0, List.of()), arguments(1, List.of(1)), arguments(99, List.of(99)),
                arguments(100, List.of(100)), arguments(101, List.of(100, 1)), arguments(250, List.of(100, 100, 50)));
    }

    @ParameterizedTest(name = "{0} items")
    @MethodSource("sizes")
    void batchesOfAtMostOneHundred(int items, List<Integer> sizes) {
        List<Integer> all = IntStream.range(0, items).boxed().toList();

        List<List<Integer>> batches = TaskFetcher.batches(all, EcsApi.BATCH);

        assertThat(batches).map(List::size).isEqualTo(sizes);
        assertThat(batches.stream().flatMap(List::stream).toList()).isEqualTo(all);
    }

    @Test
    void taskDefinitionsAreCachedByTaskDefinitionArnNotByTask() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        ecs.fargate("t2", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings());

        fetcher.fetch();
        assertThat(ecs.calls).containsEntry("ecs:DescribeTaskDefinition", 1);

        ecs.fargate("t3", "web:1"); // a new task of a known revision: nothing to describe
        ecs.calls.clear();
        assertThat(fetcher.fetch()).hasSize(3);
        assertThat(ecs.calls).isEqualTo(Map.of("ecs:ListTasks", 1, "ecs:DescribeTasks", 1));

        ecs.fargate("t4", "web:2"); // a new revision: described once
        ecs.calls.clear();
        fetcher.fetch();
        assertThat(ecs.calls).containsEntry("ecs:DescribeTaskDefinition", 1);
    }

    @Test
    void knownContainerInstancesCostNoCallsButAnInstanceNotRunningIsAskedAgain() {
        FakeEcs ecs = new FakeEcs();
        ecs.onInstance("t1", "ci-1", "i-1", "127.0.1.1", "running");
        ecs.onInstance("t2", "ci-2", "i-2", "127.0.1.2", "pending");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings());

        List<TaskContainer> first = fetcher.fetch();
        ecs.calls.clear();
        List<TaskContainer> second = fetcher.fetch();

        assertThat(first).map(TaskContainer::host).containsExactly(
                Host.at("ci-1", "i-1", "127.0.1.1"), new Host("ci-2", "i-2", null, "EC2 instance i-2 is pending, not running"));
        assertThat(second).isEqualTo(first);
        assertThat(ecs.calls).isEqualTo(Map.of("ecs:ListTasks", 1, "ec2:DescribeInstances", 1));
        assertThat(ecs.describedEc2).containsExactly(List.of("i-1", "i-2"), List.of("i-2"));
    }

    @Test
    void managedInstancesAreAskedOfSsmOnlyWithEcsAnywhere() {
        FakeEcs ecs = new FakeEcs();
        ecs.onInstance("t1", "ci-1", "mi-1", "127.0.2.1", "running");

        assertThat(new TaskFetcher(ecs, settings()).fetch()).map(TaskContainer::host)
                .containsExactly(new Host("ci-1", "mi-1", null, null));
        assertThat(ecs.calls).doesNotContainKey("ssm:DescribeInstanceInformation");

        assertThat(new TaskFetcher(ecs, settings("ecsAnywhere=true")).fetch()).map(TaskContainer::host)
                .containsExactly(Host.at("ci-1", "mi-1", "127.0.2.1"));
        assertThat(ecs.calls).containsEntry("ssm:DescribeInstanceInformation", 1).doesNotContainKey("ec2:DescribeInstances");
    }

    @Test
    void anyFailedCallFailsTheWholeRefreshAndTheCachesSurviveIt() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings());
        fetcher.fetch();
        ecs.fargate("t2", "api:1");
        ecs.failing = "ecs:DescribeTaskDefinition";

        assertThatThrownBy(fetcher::fetch).isInstanceOf(EcsApiException.class);

        ecs.failing = null;
        ecs.calls.clear();
        assertThat(fetcher.fetch()).hasSize(2);
        assertThat(ecs.calls).containsEntry("ecs:DescribeTaskDefinition", 1); // api:1 only
    }

    @Test
    void batchesAreDescribedConcurrentlyInOrderAndOneFailedBatchFailsTheRefresh() {
        FakeEcs ecs = new FakeEcs();
        for (int i = 0; i < 250; i++) {
            ecs.fargate(String.format("t%03d", i), "web:1");
        }
        ecs.describeLatch = new java.util.concurrent.CountDownLatch(3); // each batch waits until all three run
        TaskFetcher fetcher = new TaskFetcher(ecs, settings());

        assertThat(fetcher.fetch()).map(TaskContainer::taskArn)
                .isEqualTo(ecs.tasks.values().stream().map(Task::taskArn).toList());
        assertThat(ecs.calls).containsEntry("ecs:DescribeTasks", 3);

        fetcher.close();

        ecs.describeLatch = null;
        ecs.failing = "ecs:DescribeTasks";
        try (TaskFetcher fresh = new TaskFetcher(ecs, settings())) { // nothing known: every task is described
            assertThatThrownBy(fresh::fetch).isInstanceOf(EcsApiException.class)
                    .hasMessage("ecs:DescribeTasks throttled");
        }
    }

    @Test
    void aSteadyClusterIsListedButNotDescribedAgain() {
        FakeEcs ecs = new FakeEcs();
        for (int i = 0; i < 250; i++) {
            ecs.fargate(String.format("t%03d", i), "web:1");
        }
        TaskFetcher fetcher = new TaskFetcher(ecs, settings(), clock::get);
        List<TaskContainer> first = fetcher.fetch();
        assertThat(ecs.calls).containsEntry("ecs:DescribeTasks", 3);

        ecs.calls.clear();
        clock.addAndGet(SECOND * 15);
        assertThat(fetcher.fetch()).isEqualTo(first);
        assertThat(ecs.calls).isEqualTo(Map.of("ecs:ListTasks", 1));
        assertThat(fetcher.describedTasks()).isEqualTo(250);
    }

    @Test
    void onlyANewTaskIsDescribedAndTheOrderIsTheListings() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        ecs.fargate("t3", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings(), clock::get);
        fetcher.fetch();
        ecs.tasks.clear();
        ecs.fargate("t1", "web:1");
        ecs.fargate("t2", "web:1");
        ecs.fargate("t3", "web:1");
        ecs.describedTasks.clear();

        assertThat(fetcher.fetch()).map(TaskContainer::taskArn)
                .containsExactly("arn:task/prod/t1", "arn:task/prod/t2", "arn:task/prod/t3");
        assertThat(ecs.describedTasks).containsExactly(List.of("arn:task/prod/t2"));
    }

    @Test
    void aPendingTaskIsDescribedAgainUntilItRuns() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        ecs.status("t1", "PENDING");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings(), clock::get);

        assertThat(fetcher.fetch()).map(TaskContainer::lastStatus).containsExactly("PENDING");
        assertThat(fetcher.fetch()).map(TaskContainer::lastStatus).containsExactly("PENDING");
        ecs.status("t1", "RUNNING");
        assertThat(fetcher.fetch()).map(TaskContainer::lastStatus).containsExactly("RUNNING");
        assertThat(fetcher.fetch()).map(TaskContainer::lastStatus).containsExactly("RUNNING");

        assertThat(ecs.describedTasks).hasSize(3); // PENDING, PENDING, RUNNING; then known
    }

    @Test
    void aTaskNoLongerListedIsGoneAndDroppedFromTheCache() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        ecs.fargate("t2", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings(), clock::get);
        fetcher.fetch();

        ecs.tasks.remove("t1"); // stopped: ListTasks desiredStatus=RUNNING no longer names it
        ecs.calls.clear();

        assertThat(fetcher.fetch()).map(TaskContainer::taskArn).containsExactly("arn:task/prod/t2");
        assertThat(ecs.calls).isEqualTo(Map.of("ecs:ListTasks", 1));
        assertThat(fetcher.describedTasks()).isEqualTo(1);
    }

    @Test
    void withHealthyTasksOnlyEveryTaskIsDescribedAtEveryRefresh() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        ecs.fargate("t2", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings("healthyTasksOnly=true"), clock::get);

        fetcher.fetch();
        ecs.tasks.put("t1", ecs.tasks.get("t1").toBuilder().healthStatus("UNHEALTHY").build());
        List<TaskContainer> second = fetcher.fetch();

        assertThat(second).map(TaskContainer::healthStatus).containsExactly("UNHEALTHY", "UNKNOWN");
        assertThat(ecs.describedTasks).hasSize(2).allSatisfy(arns -> assertThat(arns).hasSize(2));
        assertThat(fetcher.describedTasks()).isZero();
    }

    static Stream<Arguments> ages() { // refreshSeconds, age in seconds, described again
        return Stream.of(arguments(15, 30, false), arguments(15, 60, true), arguments(5, 30, false),
                arguments(5, 60, true), arguments(30, 60, false), arguments(30, 120, true));
    }

    @ParameterizedTest(name = "refresh {0} s, age {1} s: described again {2}")
    @MethodSource("ages")
    void anEntryIsDescribedAgainOnceOlderThanTheStalenessBound(int refreshSeconds, int ageSeconds, boolean again) {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings("refreshSeconds=" + refreshSeconds), clock::get);
        fetcher.fetch();
        ecs.tasks.put("t1", ecs.tasks.get("t1").toBuilder()
                .containers(Container.builder().name("app").lastStatus("STOPPED").build()).build());
        ecs.describedTasks.clear();

        clock.addAndGet(SECOND * ageSeconds);
        List<TaskContainer> later = fetcher.fetch();

        // The bound is max(60 s, 4 x refreshSeconds); an entry is described again after half of it (jitter by ARN).
        assertThat(ecs.describedTasks).hasSize(again ? 1 : 0);
        assertThat(later).map(TaskContainer::containerStatus).containsExactly(again ? "STOPPED" : null);
    }

    @Test
    void theJitterSpreadsEntriesOverTheSecondHalfOfTheWindow() {
        DescribedTasks described = new DescribedTasks(15, clock::get);
        Set<Long> ages = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            long age = described.staleAfterNanos("arn:aws:ecs:us-east-1:1:task/prod/" + i);
            assertThat(age).isBetween(30 * SECOND + 1, 60 * SECOND);
            ages.add((age - 1) / (10 * SECOND));
        }
        assertThat(ages).containsExactlyInAnyOrder(3L, 4L, 5L); // 30-40, 40-50, 50-60 s: all used
    }

    @Test
    void aFailedDescribeFailsTheRefreshAndKeepsTheKnownDescriptions() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");
        TaskFetcher fetcher = new TaskFetcher(ecs, settings(), clock::get);
        List<TaskContainer> first = fetcher.fetch();
        ecs.tasks.remove("t1");
        ecs.fargate("t2", "web:1");
        ecs.failing = "ecs:DescribeTasks";

        assertThatThrownBy(fetcher::fetch).isInstanceOf(EcsApiException.class);
        assertThat(fetcher.describedTasks()).isEqualTo(1); // t1 still known: nothing half-replaced

        ecs.failing = null;
        ecs.fargate("t1", "web:1");
        ecs.describedTasks.clear();
        assertThat(fetcher.fetch()).map(TaskContainer::taskArn).containsExactly("arn:task/prod/t2", "arn:task/prod/t1");
        assertThat(ecs.describedTasks).containsExactly(List.of("arn:task/prod/t2"));
        assertThat(first).map(TaskContainer::taskArn).containsExactly("arn:task/prod/t1");
    }

    @Test
    void clustersAreTheConfiguredOnesOrEveryClusterAndItemsCarryTheirNames() {
        FakeEcs ecs = new FakeEcs();
        ecs.fargate("t1", "web:1");

        assertThat(new TaskFetcher(ecs, settings("autoDiscoverClusters=true")).fetch())
                .map(TaskContainer::cluster).containsExactly("prod");
        assertThat(ecs.calls).containsEntry("ecs:ListClusters", 1);
        assertThat(new TaskFetcher(ecs, settings("clusters=prod")).fetch()).hasSize(1);
        assertThat(TaskFetcher.nameOf("arn:aws:ecs:us-east-1:1:cluster/prod")).isEqualTo("prod");
    }

    /** Cluster {@code prod}, kept in memory; every call counted by operation, one operation can be made to fail. */
    private static final class FakeEcs implements EcsApi {
        final Map<String, Integer> calls = new TreeMap<>();
        final List<List<String>> describedEc2 = new ArrayList<>();
        /** The ARNs asked of each DescribeTasks call. */
        final List<List<String>> describedTasks = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<String, Task> tasks = new LinkedHashMap<>();
        final Map<String, ContainerInstance> containerInstances = new HashMap<>();
        final Map<String, Ec2Instance> ec2 = new HashMap<>();
        final Map<String, String> managed = new HashMap<>();
        final Set<String> definitions = new HashSet<>();
        String failing;
        /** When set, each DescribeTasks call counts down and waits for the others: proof that they overlap. */
        volatile java.util.concurrent.CountDownLatch describeLatch;

        void fargate(String id, String definition) {
            definitions.add(definition);
            tasks.put(id, Task.builder().taskArn("arn:task/prod/" + id).taskDefinitionArn(definition)
                    .lastStatus("RUNNING").containers(Container.builder().name("app").build()).build());
        }

        void status(String id, String lastStatus) {
            tasks.put(id, tasks.get(id).toBuilder().lastStatus(lastStatus).build());
        }

        void onInstance(String id, String ci, String instanceId, String ip, String state) {
            definitions.add("api:1");
            tasks.put(id, Task.builder().taskArn("arn:task/prod/" + id).taskDefinitionArn("api:1").lastStatus("RUNNING")
                    .containerInstanceArn(ci).containers(Container.builder().name("app")
                            .networkBindings(NetworkBinding.builder().containerPort(80).hostPort(32768).build()).build())
                    .build());
            containerInstances.put(ci, ContainerInstance.builder().containerInstanceArn(ci).ec2InstanceId(instanceId).build());
            if (instanceId.startsWith("mi-")) {
                managed.put(instanceId, ip);
            } else {
                ec2.put(instanceId, new Ec2Instance(instanceId, ip, state));
            }
        }

        private synchronized void count(String operation) { // DescribeTasks batches run concurrently
            calls.merge(operation, 1, Integer::sum);
            if (operation.equals(failing)) {
                throw new EcsApiException(operation, EcsApiException.Kind.THROTTLED, operation + " throttled", null);
            }
        }

        @Override
        public List<String> listClusters() {
            count("ecs:ListClusters");
            return List.of("arn:aws:ecs:us-east-1:1:cluster/prod");
        }

        @Override
        public List<String> listRunningTasks(String cluster) {
            count("ecs:ListTasks");
            return tasks.values().stream().map(Task::taskArn).toList();
        }

        @Override
        public List<Task> describeTasks(String cluster, List<String> taskArns) {
            count("ecs:DescribeTasks");
            describedTasks.add(taskArns);
            java.util.concurrent.CountDownLatch latch = describeLatch;
            if (latch != null) {
                latch.countDown();
                try {
                    if (!latch.await(10, java.util.concurrent.TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the DescribeTasks batches did not run concurrently");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return tasks.values().stream().filter(t -> taskArns.contains(t.taskArn())).toList();
        }

        @Override
        public List<ContainerInstance> describeContainerInstances(String cluster, List<String> arns) {
            count("ecs:DescribeContainerInstances");
            return arns.stream().map(containerInstances::get).toList();
        }

        @Override
        public Map<String, Ec2Instance> describeEc2Instances(List<String> instanceIds) {
            count("ec2:DescribeInstances");
            describedEc2.add(instanceIds);
            Map<String, Ec2Instance> out = new HashMap<>();
            instanceIds.forEach(id -> out.put(id, ec2.get(id)));
            return out;
        }

        @Override
        public Map<String, String> describeManagedInstances(List<String> ids) {
            count("ssm:DescribeInstanceInformation");
            Map<String, String> out = new HashMap<>();
            ids.forEach(id -> out.put(id, managed.get(id)));
            return out;
        }

        @Override
        public TaskDefinition describeTaskDefinition(String arn) {
            count("ecs:DescribeTaskDefinition");
            assertThat(definitions).contains(arn);
            return TaskDefinition.builder().taskDefinitionArn(arn).family(arn.substring(0, arn.indexOf(':')))
                    .networkMode(arn.startsWith("web") ? "awsvpc" : "bridge")
                    .containerDefinitions(ContainerDefinition.builder().name("app").build()).build();
        }
    }
}
