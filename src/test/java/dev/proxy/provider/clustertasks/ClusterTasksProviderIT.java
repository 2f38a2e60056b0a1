package dev.proxy.provider.clustertasks;

import static dev.proxy.provider.clustertasks.EcsSeed.container;
import static dev.proxy.provider.clustertasks.EcsSeed.healthChecked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.dynamic.DynamicConfig;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.ecs.model.NetworkMode;

/**
 * The provider as the program wires it (DI context, SDK clients through the standard {@code aws.endpointUrl}
 * override) against the ECS/EC2/SSM emulator, routing real requests to local backends through the data plane.
 * Every test seeds its own clusters and task families, so tests never see each other's routes.
 */
@ExtendWith(MotoServerExtension.class)
class ClusterTasksProviderIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> SYSTEM_PROPERTIES = List.of("aws.endpointUrl", "aws.accessKeyId",
            "aws.secretAccessKey", "aws.region");

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
        // The SDK's standard settings, as AWS_ENDPOINT_URL etc. would be for a separate process.
        System.setProperty("aws.endpointUrl", server.endpoint().toString());
        System.setProperty("aws.accessKeyId", server.env().get("AWS_ACCESS_KEY_ID"));
        System.setProperty("aws.secretAccessKey", server.env().get("AWS_SECRET_ACCESS_KEY"));
        System.setProperty("aws.region", "us-east-1");
    }

    @AfterAll
    static void clear() {
        SYSTEM_PROPERTIES.forEach(System::clearProperty);
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
}
