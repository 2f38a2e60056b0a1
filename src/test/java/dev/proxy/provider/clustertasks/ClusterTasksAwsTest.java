package dev.proxy.provider.clustertasks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.Providers;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's AWS wiring as the program builds it: which credentials and region sign the requests, the standard
 * endpoint override, and no AWS bean at all without the provider's section. A local HTTP server stands in for ECS
 * and records what it receives.
 */
class ClusterTasksAwsTest {

    private static final Map<String, String> PROPERTIES = Map.of(
            "aws.accessKeyId", "AKIADEFAULTCHAIN0001",
            "aws.secretAccessKey", "default-chain-secret",
            "aws.region", "eu-west-1");

    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer ecs;

    @BeforeEach
    void fakeEcs() throws IOException {
        ecs = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ecs.createContext("/", ex -> {
            authorizations.add(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] body = "{\"clusterArns\":[]}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        ecs.start();
        System.setProperty("aws.endpointUrl", "http://127.0.0.1:" + ecs.getAddress().getPort());
        PROPERTIES.forEach(System::setProperty);
    }

    @AfterEach
    void stop() {
        ecs.stop(0);
        System.clearProperty("aws.endpointUrl");
        PROPERTIES.keySet().forEach(System::clearProperty);
    }

    private static ApplicationContext context(String... flags) {
        InstallConfig install = RecordDecoder.decode(InstallConfig.class, CommandLineEntries.fromFlags(List.of(flags)));
        return ApplicationContext.builder().deduceEnvironment(false).banner(false).singletons(install).start();
    }

    @Test
    void staticKeysAndTheConfiguredRegionSignTheRequestsWhenGiven() {
        try (ApplicationContext ctx = context("--providers.clusterTasks.accessKeyID=AKIASTATICKEYS000001",
                "--providers.clusterTasks.secretAccessKey=static-secret", "--providers.clusterTasks.region=us-west-2")) {
            ctx.getBean(EcsApi.class).listClusters();
        }

        assertThat(authorizations).singleElement().asString()
                .contains("Credential=AKIASTATICKEYS000001/").contains("/us-west-2/ecs/aws4_request")
                .doesNotContain("static-secret");
    }

    @Test
    void withoutKeysTheDefaultChainSignsAndFindsTheRegion() {
        try (ApplicationContext ctx = context("--providers.clusterTasks=true")) {
            ctx.getBean(EcsApi.class).listClusters();
        }

        assertThat(authorizations).singleElement().asString()
                .contains("Credential=AKIADEFAULTCHAIN0001/").contains("/eu-west-1/ecs/aws4_request");
    }

    @Test
    void theProviderAndItsClientsExistOnlyWithItsSection() {
        try (ApplicationContext ctx = context("--entryPoints.web.address=127.0.0.1:0")) {
            assertThat(ctx.getBean(Providers.class).names()).isEmpty();
            assertThat(ctx.findBean(EcsApi.class)).isEmpty();
            assertThat(ctx.findBean(ClusterTasksAws.class)).isEmpty();
        }
        try (ApplicationContext ctx = context("--providers.clusterTasks=true")) {
            assertThat(ctx.getBean(Providers.class).names()).containsExactly("clustertasks");
        }
        assertThat(authorizations).isEmpty(); // creating the provider calls nothing
    }
}
