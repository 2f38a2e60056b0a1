package dev.proxy.provider.clustertasks;

import static dev.proxy.provider.clustertasks.EcsSeed.container;
import static dev.proxy.provider.clustertasks.EcsSeed.healthChecked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.PollingSupervisor;
import dev.proxy.provider.RecordedLogs;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.aws.MotoServer;
import dev.proxy.testing.aws.MotoServer.TaskHealth;
import dev.proxy.testing.aws.MotoServerExtension;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.NetworkMode;

/**
 * The provider as the program wires it (DI context, SDK clients through the standard {@code aws.endpointUrl}
 * override) against the ECS/EC2/SSM emulator, routing real requests to local backends through the data plane.
 * Every test seeds its own clusters and task families, so tests never see each other's routes.
 */
@ExtendWith(MotoServerExtension.class)
class ClusterTasksProviderIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static MotoServer moto;
    private static EcsSeed seed;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<HttpServer> backends = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> running = new ArrayList<>();

    @BeforeAll
    static void emulator(MotoServer server) {
        moto = server;
        seed = new EcsSeed(server);
        EcsSeed.pointSdkAt(server);
    }

    @AfterAll
    static void clear() {
        EcsSeed.clearSdkSettings();
        seed.close();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
        backends.forEach(b -> b.stop(0));
    }

    /** A proxy with the provider from a DI context, polling every second, no throttling. */
    private Proxy proxy(String... providerFlags) {
        List<String> flags = new ArrayList<>(List.of("--entryPoints.web.address=127.0.0.1:0",
                "--providers.providersThrottleDuration=0s", "--providers.clusterTasks.refreshSeconds=1"));
        Stream.of(providerFlags).map(f -> "--providers.clusterTasks." + f).forEach(flags::add);
        DataPlane plane = new DataPlane(flags.toArray(String[]::new));
        ApplicationContext context = ApplicationContext.builder().deduceEnvironment(false).banner(false)
                .singletons(plane.install).start();
        ClusterTasksProvider provider = context.getBean(ClusterTasksProvider.class);
        Proxy proxy = new Proxy(plane, context, provider);
        running.add(proxy);
        plane.run(provider);
        return proxy;
    }

    private record Proxy(DataPlane plane, ApplicationContext context, ClusterTasksProvider provider)
            implements AutoCloseable {
        @Override
        public void close() {
            plane.close();
            context.close();
        }
    }

    /** A backend on 127.0.0.1 answering its name; returns its port. */
    private int backend(String name) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        s.start();
        backends.add(s);
        return s.getAddress().getPort();
    }

    /** {@code <status> <body>} of a GET through the proxy with this Host header. */
    private String get(Proxy proxy, String host) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(proxy.plane().url("web", "/")))
                .header("Host", host).timeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private void awaitAnswer(Proxy proxy, String host, String expected) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(get(proxy, host)).isEqualTo(expected));
    }

    private static String rule(String router, String host) {
        return "proxy.http.routers." + router + ".rule=Host(`" + host + "`)";
    }

    /** One Fargate task of a new family at 127.0.0.1, in service {@code family}. */
    private String run(String cluster, String family, ContainerDefinition c) {
        String task = seed.runFargate(cluster, seed.fargateDefinition(family, c), "service:" + family);
        moto.setTaskPrivateIp(task, "127.0.0.1");
        return task;
    }

    /** The provider alone, from a DI context (closed after the test). */
    private ClusterTasksProvider provider(String... providerFlags) {
        List<String> flags = new ArrayList<>(List.of("--providers.clusterTasks.refreshSeconds=1"));
        Stream.of(providerFlags).map(f -> "--providers.clusterTasks." + f).forEach(flags::add);
        ApplicationContext context = ApplicationContext.builder().deduceEnvironment(false).banner(false)
                .singletons(RecordDecoder.decode(InstallConfig.class, CommandLineEntries.fromFlags(flags))).start();
        running.add(context);
        ClusterTasksProvider provider = context.getBean(ClusterTasksProvider.class);
        running.add(provider::stop);
        return provider;
    }

    private static Map<String, Long> difference(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> out = new TreeMap<>();
        later.forEach((op, n) -> {
            long d = n - earlier.getOrDefault(op, 0L);
            if (d != 0) {
                out.put(op, d);
            }
        });
        return out;
    }

    @Test
    void everyNetworkModeIsReachableAndEachContainerGetsItsRouter() throws Exception {
        String cluster = seed.cluster("modes");
        // Fargate (awsvpc): the task's network interface address and the container port; two containers
        int app = backend("fargate-app");
        int admin = backend("fargate-admin");
        String fargate = seed.runFargate(cluster, seed.fargateDefinition("modes-fargate",
                container("app", app, rule("app", "app.fargate.test")),
                container("admin", admin, rule("admin", "admin.fargate.test"))), "service:modes-fargate");
        moto.setTaskPrivateIp(fargate, "127.0.0.1");
        // bridge on EC2: the instance's private address and the dynamic host port bound to container port 80
        EcsSeed.Instance ec2 = seed.ec2Instance(cluster, "127.0.0.1");
        int bridgePort = backend("bridge");
        String bridge = seed.startTask(cluster, seed.ec2Definition("modes-bridge", NetworkMode.BRIDGE,
                container("web", 80, rule("bridge", "bridge.test"))), ec2, "service:modes-bridge");
        moto.setHostPorts(bridge, Map.of(80, bridgePort));
        // host mode: the instance's address and the container port itself
        int hostPort = backend("host");
        seed.startTask(cluster, seed.ec2Definition("modes-host", NetworkMode.HOST,
                container("web", hostPort, rule("host", "host.test"))), ec2, "service:modes-host");
        // ECS Anywhere: the address SSM reports for the managed instance, and the bound host port
        EcsSeed.Instance external = seed.anywhereInstance(cluster, "mi-0a1b2c3d4e5f60001", "127.0.0.1");
        int anywherePort = backend("anywhere");
        String anywhere = seed.startTask(cluster, seed.anywhereDefinition("modes-anywhere",
                container("web", 80, rule("anywhere", "anywhere.test"))), external, "service:modes-anywhere");
        moto.setHostPorts(anywhere, Map.of(80, anywherePort));

        Proxy proxy = proxy("clusters=modes", "ecsAnywhere=true");

        awaitAnswer(proxy, "app.fargate.test", "200 fargate-app");
        assertThat(get(proxy, "admin.fargate.test")).isEqualTo("200 fargate-admin");
        assertThat(get(proxy, "bridge.test")).isEqualTo("200 bridge");
        assertThat(get(proxy, "host.test")).isEqualTo("200 host");
        assertThat(get(proxy, "anywhere.test")).isEqualTo("200 anywhere");
        assertThat(proxy.provider().explain()).extracting(Explanation::name).containsExactlyInAnyOrder(
                "service-modes-fargate-app", "service-modes-fargate-admin", "service-modes-bridge-web",
                "service-modes-host-web", "service-modes-anywhere-web");
        assertThat(proxy.provider().explain()).allMatch(Explanation::exposed);
    }

    @Test
    void enableLabelConstraintsAndTaskHealthDecideWhatIsRouted() throws Exception {
        String cluster = seed.cluster("filters");
        int port = backend("filters");
        // Every task would reach the backend if it were routed; each misses one condition.
        Map<String, String> tasks = new LinkedHashMap<>();
        tasks.put("ok", run(cluster, "filters-ok", healthChecked(container("app", port, "proxy.enable=true", "team=shop",
                rule("ok", "ok.filters.test")))));
        tasks.put("off", run(cluster, "filters-off", healthChecked(container("app", port, "team=shop",
                rule("off", "off.filters.test")))));
        tasks.put("ops", run(cluster, "filters-ops", healthChecked(container("app", port, "proxy.enable=true", "team=ops",
                rule("ops", "ops.filters.test")))));
        tasks.put("sick", run(cluster, "filters-sick", healthChecked(container("app", port, "proxy.enable=true", "team=shop",
                rule("sick", "sick.filters.test")))));
        tasks.put("unknown", run(cluster, "filters-unknown", container("app", port, "proxy.enable=true", "team=shop",
                rule("unknown", "unknown.filters.test"))));
        moto.setTaskHealth(tasks.get("sick"), TaskHealth.UNHEALTHY);

        Proxy proxy = proxy("clusters=filters", "exposedByDefault=false", "constraints=Label(`team`, `shop`)",
                "healthyTasksOnly=true");

        awaitAnswer(proxy, "ok.filters.test", "200 filters");
        for (String skipped : List.of("off", "ops", "sick", "unknown")) {
            assertThat(get(proxy, skipped + ".filters.test")).isEqualTo("404 404 page not found");
        }
        assertThat(proxy.provider().explain()).extracting(e -> e.name() + ": " + e.detail()).containsExactlyInAnyOrder(
                "service-filters-ok-app: routers ok; services service-filters-ok-app",
                "service-filters-off-app: not enabled: exposedByDefault is false and there is no label proxy.enable=true",
                "service-filters-ops-app: labels do not match constraints Label(`team`, `shop`)",
                "service-filters-sick-app: task health is UNHEALTHY and healthyTasksOnly admits only HEALTHY tasks",
                "service-filters-unknown-app: task health is UNKNOWN and healthyTasksOnly admits only HEALTHY tasks"
                        + " (a task without container health checks is UNKNOWN)");

        moto.setTaskHealth(tasks.get("unknown"), TaskHealth.HEALTHY);
        awaitAnswer(proxy, "unknown.filters.test", "200 filters");
    }

    @Test
    void autoDiscoverClustersWatchesEveryClusterWithStaticKeys() throws Exception {
        for (String name : List.of("auto-a", "auto-b", "auto-c")) {
            seed.cluster(name);
            run(name, name + "-web", container("app", backend(name), rule(name, name + ".test")));
        }

        Proxy proxy = proxy("autoDiscoverClusters=true", "accessKeyID=AKIAPROXYSTATICKEY01",
                "secretAccessKey=static-secret-for-the-emulator");

        awaitAnswer(proxy, "auto-a.test", "200 auto-a");
        assertThat(get(proxy, "auto-b.test")).isEqualTo("200 auto-b");
        assertThat(get(proxy, "auto-c.test")).isEqualTo("200 auto-c");
        assertThat(proxy.provider().explain()).extracting(Explanation::cluster).contains("auto-a", "auto-b", "auto-c");
    }

    @Test
    void aStoppedTaskIsRemovedAtTheNextPoll() throws Exception {
        String cluster = seed.cluster("stop");
        String task = run(cluster, "stop-web", container("app", backend("stop"), rule("stop", "stop.test")));
        Proxy proxy = proxy("clusters=stop");
        awaitAnswer(proxy, "stop.test", "200 stop");

        seed.stopTask(cluster, task);

        awaitAnswer(proxy, "stop.test", "404 404 page not found");
        assertThat(proxy.provider().explain()).isEmpty();
    }

    @Test
    void twoHundredFiftyTasksAreReadInBatchesAndSteadyPollsReuseTheCaches() {
        String cluster = seed.cluster("batch");
        seed.runFargate(cluster, seed.fargateDefinition("batch-web", container("app", 8080)), "service:batch-web", 220);
        EcsSeed.Instance a = seed.ec2Instance(cluster, "127.0.0.1");
        EcsSeed.Instance b = seed.ec2Instance(cluster, "127.0.0.1");
        String bridge = seed.ec2Definition("batch-api", NetworkMode.BRIDGE, container("app", 80));
        for (int i = 0; i < 30; i++) {
            seed.startTask(cluster, bridge, i % 2 == 0 ? a : b, "service:batch-api");
        }
        moto.resetCallCounts();
        List<Map<String, Long>> callsAtPublish = new CopyOnWriteArrayList<>();
        List<DynamicConfig> published = new CopyOnWriteArrayList<>();
        ClusterTasksProvider provider = provider("clusters=batch");

        // Published on the polling thread before the next poll is scheduled: the counts are exactly whole polls.
        provider.start((name, config) -> {
            callsAtPublish.add(moto.callCounts());
            published.add(config);
        });
        await().atMost(WAIT).until(() -> callsAtPublish.size() >= 2);
        provider.stop();

        assertThat(callsAtPublish.get(0)).isEqualTo(Map.of("ecs:ListTasks", 3L, "ecs:DescribeTasks", 3L,
                "ecs:DescribeTaskDefinition", 2L, "ecs:DescribeContainerInstances", 1L, "ec2:DescribeInstances", 1L));
        assertThat(difference(callsAtPublish.get(1), callsAtPublish.get(0)))
                .isEqualTo(Map.of("ecs:ListTasks", 3L)); // running tasks are known: listed, not described again
        var services = published.get(0).http().services();
        assertThat(services.get("service-batch-web-app").loadBalancer().servers()).hasSize(220);
        assertThat(services.get("service-batch-api-app").loadBalancer().servers()).hasSize(30);
        assertThat(published.get(1)).isEqualTo(published.get(0));
    }

    @Test
    void throttlingAndAccessDeniedKeepTheRoutesAndNameTheOperation() throws Exception {
        String cluster = seed.cluster("faults");
        run(cluster, "faults-web", container("app", backend("faults"), rule("faults", "faults.test")));
        Proxy proxy = proxy("clusters=faults");
        awaitAnswer(proxy, "faults.test", "200 faults");

        try (RecordedLogs logs = new RecordedLogs(PollingSupervisor.class)) {
            moto.failOperation("ecs:DescribeTasks");
            // Known running tasks are not described again: a new task makes the next poll call DescribeTasks.
            run(cluster, "faults-new", container("app", backend("faults-new"), rule("faults-new", "faults-new.test")));
            await().atMost(WAIT).until(() -> logs.at(Level.WARN).stream().anyMatch(m -> m.contains(
                    "keeping its last good configuration") && m.contains("ecs:DescribeTasks throttled by AWS (ThrottlingException")));
            assertThat(get(proxy, "faults.test")).isEqualTo("200 faults");
            moto.clearFaults();
            await().atMost(WAIT).until(() -> logs.at(Level.INFO).stream().anyMatch(m -> m.contains("recovered")));

            moto.failOperation("ecs:ListTasks", new MotoServer.Fault("AccessDeniedException", 400, null));
            await().atMost(WAIT).until(() -> logs.at(Level.WARN).stream().anyMatch(m -> m.contains(
                    "ecs:ListTasks denied (AccessDeniedException): the IAM policy of the proxy's credentials must allow ecs:ListTasks")));
            assertThat(get(proxy, "faults.test")).isEqualTo("200 faults");
        } finally {
            moto.clearFaults();
        }
    }

    @Test
    void anEmulatorOutageKeepsTheRoutesUntilItAnswersAgain() throws Exception {
        String cluster = seed.cluster("outage");
        run(cluster, "outage-web", container("app", backend("before"), rule("outage", "outage.test")));
        Proxy proxy = proxy("clusters=outage");
        awaitAnswer(proxy, "outage.test", "200 before");

        try (RecordedLogs logs = new RecordedLogs(PollingSupervisor.class)) {
            moto.stop();
            await().atMost(WAIT).until(() -> logs.at(Level.WARN).stream().anyMatch(m -> m.contains(
                    "provider clustertasks: cannot read its source, keeping its last good configuration")));
            assertThat(get(proxy, "outage.test")).isEqualTo("200 before");
            moto.start(); // empty: the cluster is gone too, and a missing configured cluster is a failure as well
            assertThat(get(proxy, "outage.test")).isEqualTo("200 before");

            seed.cluster("outage");
            // A new family: the restarted emulator would hand out outage-web:1 again, which AWS never does with a
            // revision, and the provider caches task definitions by that ARN.
            run(cluster, "outage-web-v2", container("app", backend("after"), rule("outage", "outage.test")));
            awaitAnswer(proxy, "outage.test", "200 after");
            assertThat(logs.at(Level.INFO)).anyMatch(m -> m.startsWith("provider clustertasks: recovered after"));
        }
    }
}
