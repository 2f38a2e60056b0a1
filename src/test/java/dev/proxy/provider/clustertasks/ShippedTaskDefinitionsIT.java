package dev.proxy.provider.clustertasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.InstallConfigLoader;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.aws.MotoServer;
import dev.proxy.testing.aws.MotoServerExtension;
import io.micronaut.context.ApplicationContext;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.proxy.deploy.DockerfileTest;

/**
 * The task definitions shipped in {@code ecs/}, registered in the ECS emulator byte for byte (placeholders
 * substituted, as a user would), tasks run from them, and the real clusterTasks provider configured by the proxy
 * container's own {@code command} flags: the app container must be discovered from its shipped labels and real
 * requests for its shipped {@code Host} rule must reach a local backend standing in for the app.
 */
@ExtendWith(MotoServerExtension.class)
class ShippedTaskDefinitionsIT {

    /** The image's HEALTHCHECK in ECS's form, which every shipped proxy container must repeat exactly. */
    static final List<String> IMAGE_HEALTHCHECK = List.of("CMD", "proxy", "healthcheck");

    private static final Path ECS = Path.of("ecs");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.createDefault();
    /** The app port in the shipped files (a container port; dynamic host port in bridge mode). */
    private static final String APP_PORT = "3000";

    private static MotoServer moto;
    private static EcsSeed seed;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
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
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fargate-sidecar.json", "ec2-bridge.json", "ecs-anywhere.json", "consul-connect-sidecar.json"})
    void theAppContainerIsDiscoveredFromTheShippedLabelsAndGetsTraffic(String file) throws Exception {
        String cluster = seed.cluster("shipped-" + file.replace(".json", ""));
        int backend = backend("app behind " + file);
        String text = Files.readString(ECS.resolve(file));
        Map<String, Object> shipped = read(text);
        String mode = (String) shipped.get("networkMode");
        if (mode.equals("awsvpc")) {
            // awsvpc: traffic goes to the task's address and the container port itself; the backend standing in for
            // the app listens on a free port, so that port replaces the shipped one (labels and portMappings alike).
            text = text.replace(APP_PORT, Integer.toString(backend));
        }
        String registered = register(substitute(text, cluster));
        String family = (String) shipped.get("family");

        String task = switch (mode) {
            case "awsvpc" -> {
                String t = seed.runFargate(cluster, registered, "service:" + family);
                moto.setTaskPrivateIp(t, "127.0.0.1");
                yield t;
            }
            case "bridge" -> {
                boolean anywhere = strings(shipped.get("requiresCompatibilities")).contains("EXTERNAL");
                EcsSeed.Instance host = anywhere
                        ? seed.anywhereInstance(cluster, "mi-0a1b2c3d4e5f6a7b8", "127.0.0.1")
                        : seed.ec2Instance(cluster, "127.0.0.1");
                String t = seed.startTask(cluster, registered, host, "service:" + family);
                // The dynamic host port Docker would bind to the app's container port.
                moto.setHostPorts(t, "app", Map.of(Integer.parseInt(APP_PORT), backend));
                yield t;
            }
            default -> throw new AssertionError(file + ": unexpected networkMode " + mode);
        };
        assertThat(task).isNotBlank();

        Map<String, Object> proxyContainer = container(shipped, "proxy");
        DataPlane plane = new DataPlane(dataPlaneFlags(strings(proxyContainer.get("command")), cluster)
                .toArray(String[]::new));
        ApplicationContext context = ApplicationContext.builder().deduceEnvironment(false).banner(false)
                .singletons(plane.install).start();
        running.add(plane);
        running.add(context);
        ClusterTasksProvider provider = context.getBean(ClusterTasksProvider.class);
        plane.run(provider);

        String host = hostOfRule(container(shipped, "app"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(get(plane, host)).isEqualTo("200 app behind " + file));
        assertThat(get(plane, "not-" + host)).startsWith("404");
        // The proxy container itself (no labels, exposedByDefault=false) is not routed.
        assertThat(provider.explain()).filteredOn(Explanation::exposed).extracting(Explanation::name)
                .containsExactly("service-" + family + "-app");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fargate-sidecar.json", "ec2-bridge.json", "ecs-anywhere.json", "consul-connect-sidecar.json"})
    void theHealthCheckIsTheImagesAndProbesThePingTheServerListensOn(String file, @TempDir Path emptyDir)
            throws Exception {
        Map<String, Object> proxyContainer = container(read(Files.readString(ECS.resolve(file))), "proxy");
        // ECS's form of the image's HEALTHCHECK CMD ["proxy", "healthcheck"]: "CMD" first, then the same exec form.
        List<String> healthCheck = strings(((Map<?, ?>) proxyContainer.get("healthCheck")).get("command"));
        assertThat(healthCheck).isEqualTo(IMAGE_HEALTHCHECK);
        assertThat(healthCheck.get(0)).isEqualTo("CMD");
        assertThat(healthCheck.subList(1, healthCheck.size())).isEqualTo(DockerfileTest.healthcheckCommand());
        assertThat(((Map<?, ?>) proxyContainer.get("logConfiguration")).get("logDriver")).isEqualTo("awslogs");

        // The server sees the environment and the command; `proxy healthcheck` is a separate exec that sees only
        // the environment. Both must agree on where /ping is, so ping is configured in the environment.
        Map<String, String> env = new LinkedHashMap<>();
        for (Object e : (List<?>) proxyContainer.get("environment")) {
            env.put((String) ((Map<?, ?>) e).get("name"), (String) ((Map<?, ?>) e).get("value"));
        }
        List<String> command = strings(proxyContainer.get("command")).stream()
                .map(flag -> flag.replace("<CLUSTER>", "c").replace("<CONSUL_HTTP_ADDR>", "127.0.0.1:8500")).toList();
        InstallConfig server = new InstallConfigLoader(env, emptyDir).load(command).config();
        InstallConfig healthcheck = new InstallConfigLoader(env, emptyDir).load(List.of()).config();
        assertThat(server.pingEnabled()).isTrue();
        assertThat(pingPort(healthcheck)).isEqualTo(pingPort(server));
    }

    private static int pingPort(InstallConfig config) {
        return config.entryPoints().get(config.ping().entryPoint()).listenAddress().port();
    }

    /**
     * The proxy container's own clusterTasks flags (other providers need services this test does not run), with the
     * test's cluster, a one-second refresh and a loopback entry point on a free port.
     */
    private static List<String> dataPlaneFlags(List<String> command, String cluster) {
        List<String> flags = new ArrayList<>(List.of("--entryPoints.web.address=127.0.0.1:0",
                "--providers.providersThrottleDuration=0s"));
        command.stream().filter(f -> f.startsWith("--providers.clusterTasks"))
                .filter(f -> !f.startsWith("--providers.clusterTasks.refreshSeconds="))
                .map(f -> f.replace("<CLUSTER>", cluster)).forEach(flags::add);
        flags.add("--providers.clusterTasks.refreshSeconds=1");
        assertThat(flags).contains("--providers.clusterTasks=true", "--providers.clusterTasks.clusters=" + cluster);
        return flags;
    }

    /** Placeholders as a user fills them in. */
    private static String substitute(String text, String cluster) {
        return text.replace("<ACCOUNT_ID>", "123456789012").replace("<REGION>", "us-east-1")
                .replace("<IMAGE>", "123456789012.dkr.ecr.us-east-1.amazonaws.com/proxy:test")
                .replace("<APP_IMAGE>", "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:test")
                .replace("<CLUSTER>", cluster).replace("<CONSUL_HTTP_ADDR>", "127.0.0.1:8500");
    }

    /**
     * {@code aws ecs register-task-definition --cli-input-json file://…}: the file is the request body of
     * RegisterTaskDefinition, so it is posted as it is (no SDK model in between that could drop a field).
     */
    private static String register(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(moto.endpoint())
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AmazonEC2ContainerServiceV20141113.RegisterTaskDefinition")
                // moto checks no signature but picks the service from the credential scope.
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=X/20250101/us-east-1/ecs/aws4_request, "
                        + "SignedHeaders=host, Signature=0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return (String) ((Map<?, ?>) read(response.body()).get("taskDefinition")).get("taskDefinitionArn");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(String json) throws IOException {
        return JSON.readValue(json, Map.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container(Map<String, Object> definition, String name) {
        return ((List<Map<String, Object>>) definition.get("containerDefinitions")).stream()
                .filter(c -> name.equals(c.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no container " + name));
    }

    private static List<String> strings(Object array) {
        return ((List<?>) array).stream().map(String::valueOf).toList();
    }

    /** The host of the app's {@code Host(`…`)} router rule. */
    private static String hostOfRule(Map<String, Object> app) {
        return ((Map<?, ?>) app.get("dockerLabels")).entrySet().stream()
                .filter(l -> String.valueOf(l.getKey()).matches("proxy\\.http\\.routers\\.[^.]+\\.rule"))
                .map(l -> String.valueOf(l.getValue()).replaceAll("^Host\\(`(.+)`\\)$", "$1")).findFirst()
                .orElseThrow(() -> new AssertionError("no router rule label on the app container"));
    }

    private int backend(String answer) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        s.start();
        running.add(() -> s.stop(0));
        return s.getAddress().getPort();
    }

    private String get(DataPlane plane, String host) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(plane.url("web", "/")))
                .header("Host", host).timeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }
}
