package dev.proxy.provider.clustertasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import dev.proxy.testing.Http;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile or broken ECS answers the emulator cannot give, from a scripted stand-in reached through the SDK's normal
 * endpoint override ({@code aws.endpointUrl}, like {@code AWS_ENDPOINT_URL_ECS}), with the provider wired as the
 * program wires it and real requests through the data plane. Either the odd task is skipped with its reason (in
 * {@code explain()}) while the well-formed task keeps routing, or the whole refresh fails and the last good
 * configuration stays; the poller survives both (a later good answer is applied).
 */
class ClusterTasksHostileAnswersTest {

    private static final String ARN = "arn:aws:ecs:us-east-1:123456789012:";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final ScriptedEcs ecs = new ScriptedEcs();
    private final List<FixedBackend> backends = new ArrayList<>();
    private final AtomicInteger hostileHits = new AtomicInteger();
    private DataPlane plane;
    private ApplicationContext context;
    private ClusterTasksProvider provider;

    @BeforeEach
    void pointSdkAtTheStandIn() {
        System.setProperty("aws.endpointUrl", ecs.endpoint().toString());
        System.setProperty("aws.accessKeyId", "scripted");
        System.setProperty("aws.secretAccessKey", "scripted");
        System.setProperty("aws.region", "us-east-1");
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
        ecs.close();
        List.of("aws.endpointUrl", "aws.accessKeyId", "aws.secretAccessKey", "aws.region").forEach(System::clearProperty);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        no containers field             | "taskDefinitionArn": "{DEF}"                                                           | awsvpc | {PORT} | ''                                    | without containers
        empty containers                | "taskDefinitionArn": "{DEF}", "containers": []                                         | awsvpc | {PORT} | ''                                    | without containers
        no taskDefinitionArn            | "containers": [{ENI_CONTAINER}]                                                        | awsvpc | {PORT} | ''                                    | without a taskDefinitionArn
        container without a name        | "taskDefinitionArn": "{DEF}", "containers": [{"lastStatus": "RUNNING"}]                 | awsvpc | {PORT} | ''                                    | container without a name
        awsvpc without interfaces        | "taskDefinitionArn": "{DEF}", "containers": [{"name": "app", "lastStatus": "RUNNING"}]  | awsvpc | {PORT} | ''                                    | no network interface address
        attachment without an address   | "taskDefinitionArn": "{DEF}", "containers": [{"name": "app"}], "attachments": [{"type": "ElasticNetworkInterface", "details": [{"name": "subnetId", "value": "s"}]}] | awsvpc | {PORT} | '' | no network interface address
        interface address not an IP     | "taskDefinitionArn": "{DEF}", "containers": [{"name": "app", "networkInterfaces": [{"privateIpv4Address": "evil host/x"}]}] | awsvpc | {PORT} | '' | is not an IP address or host name
        container port 70000            | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | 70000  | ''                                    | port is missing
        container port 0                | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | 0      | ''                                    | port is missing
        container port -1               | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | -1     | ''                                    | port is missing
        bridge binding without hostPort | "taskDefinitionArn": "{DEF}", "containerInstanceArn": "{CI}", "containers": [{"name": "app", "networkBindings": [{"containerPort": 80, "protocol": "tcp"}]}] | bridge | 80 | '' | port is missing
        bridge binding hostPort 65536   | "taskDefinitionArn": "{DEF}", "containerInstanceArn": "{CI}", "containers": [{"name": "app", "networkBindings": [{"containerPort": 80, "hostPort": 65536}]}] | bridge | 80 | '' | port is missing
        unknown network mode, no host   | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | weird  | {PORT} | ''                                    | not on a container instance
        port label 65536                | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | {PORT} | "proxy.http.services.s.loadbalancer.server.port": "65536" | not a port
        port label -1                   | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | {PORT} | "proxy.http.services.s.loadbalancer.server.port": "-1"    | not a port
        CR LF in a label value          | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | {PORT} | "proxy.http.middlewares.h.headers.customrequestheaders.X-A": "1\\r\\nX-Injected: 1" | control characters
        null label value                | "taskDefinitionArn": "{DEF}", "containers": [{ENI_CONTAINER}]                          | awsvpc | {PORT} | "proxy.enable": null, "proxy.http.services.s.loadbalancer.server.port": "0" | not a port
        """)
    void anOddTaskIsSkippedWithItsReasonAndTheOthersStillRoute(String description, String task, String mode,
                                                              String containerPort, String labels, String reason)
            throws Exception {
        int hostile = backend("hostile", hostileHits);
        String definition = ARN + "task-definition/bad:1";
        ecs.definitions.put(definition, definition("bad", mode, containerPort.replace("{PORT}", "" + hostile),
                "bad.test", labels));
        String badTask = "{\"taskArn\": \"" + ARN + "task/hostile/bad\", \"lastStatus\": \"RUNNING\", "
                + "\"group\": \"service:bad\", " + task.replace("{DEF}", definition)
                .replace("{CI}", ScriptedEcs.containerInstance())
                .replace("{ENI_CONTAINER}", "{\"name\": \"app\", \"lastStatus\": \"RUNNING\", "
                        + "\"networkInterfaces\": [{\"privateIpv4Address\": \"127.0.0.1\"}]}") + "}";
        ecs.answers.put("ListTasks", list("good", "bad"));
        ecs.answers.put("DescribeTasks", tasks(goodTask("good", "good.test"), badTask));

        start();
        awaitAnswer("good.test", "200 good.test");

        assertThat(get("bad.test")).startsWith("404");
        assertThat(hostileHits).hasValue(0);
        assertThat(provider.explain()).filteredOn(e -> !e.task().equals("good")).singleElement().satisfies(e -> {
            assertThat(e.exposed()).isFalse();
            assertThat(e.detail()).contains(reason);
        });
        assertThat(provider.explain()).filteredOn(e -> e.task().equals("good")).singleElement()
                .satisfies(e -> assertThat(e.exposed()).isTrue());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        truncated DescribeTasks              | DescribeTasks          | {"tasks": [{"taskArn": "arn:aws:ecs:us-east-1:123456789012:task/hostile/go
        DescribeTasks answers HTML           | DescribeTasks          | <html><body>502 Bad Gateway</body></html>
        DescribeTasks tasks is a string      | DescribeTasks          | {"tasks": "all of them"}
        DescribeTasks 500                    | DescribeTasks          | 500 {"__type": "ServerException", "message": "boom"}
        truncated ListTasks                  | ListTasks              | {"taskArns": ["arn:aws:ecs:us-east-1:123456789
        truncated task definition            | DescribeTaskDefinition | {"taskDefinition": {"family": "new", "containerDefinitions": [{"na
        """)
    void aBrokenAnswerFailsTheRefreshAndTheLastGoodConfigurationStays(String description, String operation,
                                                                      String broken) throws Exception {
        String good = goodTask("good", "good.test");
        ecs.answers.put("ListTasks", list("good", "other"));
        ecs.answers.put("DescribeTasks", tasks(good, goodTask("other", "other.test")));
        start();
        awaitAnswer("other.test", "200 other.test");
        long failures = plane.activity.status(ClusterTasksProvider.NAME).failures();

        // The broken answer would also drop "other": a partial configuration must never be published.
        String newTask = goodTask("new", "new.test");
        String newDefinition = ARN + "task-definition/new:1";
        String goodNewDefinition = ecs.definitions.get(newDefinition);
        ecs.answers.put("ListTasks", list("good", "new"));
        ecs.answers.put("DescribeTasks", tasks(good, newTask));
        if (operation.equals("DescribeTaskDefinition")) {
            ecs.definitions.put(newDefinition, broken);
        } else {
            ecs.answers.put(operation, broken);
        }
        await().atMost(WAIT).until(() -> plane.activity.status(ClusterTasksProvider.NAME).failures() >= failures + 2);
        assertThat(get("other.test")).isEqualTo("200 other.test");
        assertThat(get("new.test")).startsWith("404");
        assertThat(provider.explain()).extracting(Explanation::task).containsExactlyInAnyOrder("good", "other");

        // The poller survived: a good answer is applied.
        ecs.answers.put("ListTasks", list("good", "new"));
        ecs.answers.put("DescribeTasks", tasks(good, newTask));
        ecs.definitions.put(newDefinition, goodNewDefinition);
        awaitAnswer("new.test", "200 new.test");
        assertThat(get("other.test")).startsWith("404");
    }

    private void start() {
        List<String> flags = List.of("--entryPoints.web.address=127.0.0.1:0", "--providers.providersThrottleDuration=0s",
                "--providers.clusterTasks.refreshSeconds=1", "--providers.clusterTasks.clusters=hostile");
        plane = new DataPlane(flags.toArray(String[]::new));
        context = ApplicationContext.builder().deduceEnvironment(false).banner(false).singletons(plane.install).start();
        provider = context.getBean(ClusterTasksProvider.class);
        plane.run(provider);
    }

    /** A Fargate task at 127.0.0.1 whose container answers {@code host} for Host {@code host}. */
    private String goodTask(String id, String host) throws IOException {
        int port = backend(host, new AtomicInteger());
        String definition = ARN + "task-definition/" + id + ":1";
        ecs.definitions.put(definition, definition(id, "awsvpc", "" + port, host, ""));
        return """
                {"taskArn": "%stask/hostile/%s", "taskDefinitionArn": "%s", "lastStatus": "RUNNING",
                 "group": "service:%s", "containers": [{"name": "app", "lastStatus": "RUNNING",
                 "networkInterfaces": [{"privateIpv4Address": "127.0.0.1"}]}]}""".formatted(ARN, id, definition, id);
    }

    private static String definition(String family, String mode, String containerPort, String host, String labels) {
        return """
                {"taskDefinition": {"family": "%s", "networkMode": "%s", "containerDefinitions": [{"name": "app",
                 "portMappings": [{"containerPort": %s, "protocol": "tcp"}],
                 "dockerLabels": {"proxy.http.routers.%s.rule": "Host(`%s`)"%s}}]}}"""
                .formatted(family, mode, containerPort, family, host, labels.isEmpty() ? "" : ", " + labels);
    }

    private static String list(String... ids) {
        List<String> arns = new ArrayList<>();
        for (String id : ids) {
            arns.add("\"" + ARN + "task/hostile/" + id + "\"");
        }
        return "{\"taskArns\": [" + String.join(", ", arns) + "]}";
    }

    private static String tasks(String... tasks) {
        return "{\"tasks\": [" + String.join(", ", tasks) + "], \"failures\": []}";
    }

    /** A loopback backend answering {@code body}, counting requests in {@code hits}; returns its port. */
    private int backend(String body, AtomicInteger hits) {
        FixedBackend b = new FixedBackend(body, hits);
        backends.add(b);
        return b.port();
    }

    private String get(String host) {
        HttpResponse<String> response = Http.get(plane.url("web", "/"), "Host", host);
        return response.statusCode() + " " + response.body();
    }

    private void awaitAnswer(String host, String expected) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(get(host)).isEqualTo(expected));
    }
}
