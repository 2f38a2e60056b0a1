package dev.proxy.provider.clustertasks;

import static dev.proxy.provider.clustertasks.EcsSeed.container;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import dev.proxy.testing.Http;
import dev.proxy.testing.aws.MotoServer;
import dev.proxy.testing.aws.MotoServerExtension;
import io.micronaut.context.ApplicationContext;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.PortMapping;

/**
 * Hostile task definitions the ECS emulator accepts (it validates neither label text nor port ranges): the odd
 * container is skipped with its reason, its well-formed neighbour in the same cluster keeps routing, and the odd
 * container's backend never sees a request. Answers the emulator cannot give (missing fields, truncated JSON) are in
 * {@link ClusterTasksHostileAnswersTest}.
 */
@ExtendWith(MotoServerExtension.class)
class ClusterTasksHostileIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static MotoServer moto;
    private static EcsSeed seed;

    private final List<FixedBackend> backends = new ArrayList<>();
    private final AtomicInteger hostileHits = new AtomicInteger();
    private DataPlane plane;
    private ApplicationContext context;

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
    void stop() {
        if (plane != null) {
            plane.close();
        }
        if (context != null) {
            context.close();
        }
        backends.forEach(FixedBackend::close);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        CR LF in a rule label   | {port} | {port} | proxy.http.routers.bad.rule=Host(`bad.test`)\\r\\nX-Injected: 1      | control characters
        LF in a header label    | {port} | {port} | proxy.http.middlewares.h.headers.customrequestheaders.X-A=1\\nX-B: 2 | control characters
        port label 0            | {port} | {port} | proxy.http.services.s.loadbalancer.server.port=0                   | not a port (1-65535)
        port label 65536        | {port} | {port} | proxy.http.services.s.loadbalancer.server.port=65536               | not a port (1-65535)
        port label -1           | {port} | {port} | proxy.http.services.s.loadbalancer.server.port=-1                  | not a port (1-65535)
        container port 70000    | 70000  | 70000  | ''                                                                 | port is missing
        container port 0        | 0      | 0      | ''                                                                 | port is missing
        """)
    void aHostileContainerIsSkippedWithItsReason(String description, String containerPort, String hostPort, String label,
                                                 String reason) throws Exception {
        String cluster = seed.cluster("hostile-" + UUID.randomUUID().toString().substring(0, 8));
        int good = backend("good", new AtomicInteger());
        int hostile = backend("hostile", hostileHits);
        run(cluster, "good-" + cluster, container("app", good, "proxy.http.routers.good.rule=Host(`good.test`)"));
        List<String> labels = new ArrayList<>(List.of("proxy.http.routers.bad.rule=Host(`bad.test`)"));
        if (!label.isEmpty()) {
            labels.add(label.replace("\\r", "\r").replace("\\n", "\n"));
        }
        ContainerDefinition bad = container("app", 1, labels.toArray(String[]::new)).toBuilder()
                .portMappings(PortMapping.builder().containerPort(port(containerPort, hostile))
                        .hostPort(port(hostPort, hostile)).build()).build();
        run(cluster, "bad-" + cluster, bad);

        ClusterTasksProvider provider = start(cluster);
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("good.test")).isEqualTo("200 good"));
        await().atMost(WAIT).until(() -> provider.explain().size() == 2);

        assertThat(provider.explain()).filteredOn(e -> e.name().startsWith("service-bad")).singleElement()
                .satisfies(e -> {
                    assertThat(e.exposed()).isFalse();
                    assertThat(e.detail()).contains(reason).doesNotContain("\r", "\n");
                });
        assertThat(get("bad.test")).startsWith("404");
        assertThat(hostileHits).hasValue(0);
    }

    private static int port(String text, int backend) {
        return text.equals("{port}") ? backend : Integer.parseInt(text);
    }

    private void run(String cluster, String family, ContainerDefinition c) {
        String task = seed.runFargate(cluster, seed.fargateDefinition(family, c), "service:" + family.substring(0,
                family.indexOf('-')));
        moto.setTaskPrivateIp(task, "127.0.0.1");
    }

    private ClusterTasksProvider start(String cluster) {
        plane = new DataPlane("--entryPoints.web.address=127.0.0.1:0", "--providers.providersThrottleDuration=0s",
                "--providers.clusterTasks.refreshSeconds=1", "--providers.clusterTasks.clusters=" + cluster);
        context = ApplicationContext.builder().deduceEnvironment(false).banner(false).singletons(plane.install).start();
        ClusterTasksProvider provider = context.getBean(ClusterTasksProvider.class);
        plane.run(provider);
        return provider;
    }

    private int backend(String body, AtomicInteger hits) {
        FixedBackend b = new FixedBackend(body, hits);
        backends.add(b);
        return b.port();
    }

    private String get(String host) {
        HttpResponse<String> response = Http.get(plane.url("web", "/"), "Host", host);
        return response.statusCode() + " " + response.body();
    }
}
