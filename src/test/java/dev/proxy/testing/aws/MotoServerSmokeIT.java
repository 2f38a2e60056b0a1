package dev.proxy.testing.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MotoServerExtension.class)
class MotoServerSmokeIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void smokeScriptPassesEveryCheckWithTheExtensionsVirtualenv(MotoServer moto) throws Exception {
        // smoke_test.py starts a launcher of its own: its 250 tasks and faults never touch the shared emulator
        Path log = Files.createTempFile("moto-smoke-", ".log");
        Process smoke = new ProcessBuilder(
                        moto.python().orElseThrow().toString(),
                        MotoServer.servicesDir().resolve("smoke_test.py").toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = smoke.waitFor(5, TimeUnit.MINUTES);
        smoke.destroyForcibly();
        String output = Files.readString(log);
        Files.delete(log);

        assertThat(finished).as(output).isTrue();
        assertThat(output).doesNotContain("FAIL").containsPattern("(?m)^\\d+ passed, 0 failed$");
        assertThat(smoke.exitValue()).as(output).isZero();
    }

    @Test
    void servesEcsJsonProtocolToAPlainHttpClientAndCountsTheCalls(MotoServer moto) throws Exception {
        moto.reset();
        assertThat(moto.endpoint().getHost()).isEqualTo("127.0.0.1");

        HttpResponse<String> created = ecs(moto.endpoint(), "CreateCluster", "{\"clusterName\":\"java-smoke\"}");
        HttpResponse<String> listed = ecs(moto.endpoint(), "ListClusters", "{}");

        assertThat(created.statusCode()).isEqualTo(200);
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).contains("arn:aws:ecs:us-east-1:123456789012:cluster/java-smoke");
        assertThat(moto.callCounts()).isEqualTo(Map.of("ecs:CreateCluster", 1L, "ecs:ListClusters", 1L));
    }

    @Test
    void failsAnOperationUntilTheFaultIsCleared(MotoServer moto) throws Exception {
        moto.failOperation("ecs:ListClusters");

        HttpResponse<String> throttled = ecs(moto.endpoint(), "ListClusters", "{}");
        moto.clearFaults();
        HttpResponse<String> recovered = ecs(moto.endpoint(), "ListClusters", "{}");

        assertThat(throttled.statusCode()).isEqualTo(400);
        assertThat(throttled.body()).contains("ThrottlingException");
        assertThat(recovered.statusCode()).isEqualTo(200);
    }

    @Test
    void comesBackOnTheSamePortAfterAStopWithEmptyState(MotoServer moto) throws Exception {
        ecs(moto.endpoint(), "CreateCluster", "{\"clusterName\":\"before-restart\"}");
        URI before = moto.endpoint();

        moto.stop();
        assertThatThrownBy(() -> ecs(before, "ListClusters", "{}")).isInstanceOf(ConnectException.class);
        moto.start();

        assertThat(moto.endpoint()).isEqualTo(before);
        assertThat(ecs(before, "ListClusters", "{}").body()).doesNotContain("before-restart");
        assertThat(moto.env()).containsEntry("AWS_ENDPOINT_URL", before.toString())
                .containsKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION");
    }

    /** An unsigned-but-scoped ECS JSON call: moto checks no signature, it only reads the service from the scope. */
    private HttpResponse<String> ecs(URI endpoint, String operation, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", "AmazonEC2ContainerServiceV20141113." + operation)
                .header("Authorization", String.join(" ", List.of(
                        "AWS4-HMAC-SHA256",
                        "Credential=AKIAPROXYTESTFAKE000/20250101/us-east-1/ecs/aws4_request,",
                        "SignedHeaders=host,",
                        "Signature=0")))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
