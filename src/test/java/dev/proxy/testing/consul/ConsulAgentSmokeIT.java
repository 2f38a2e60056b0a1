package dev.proxy.testing.consul;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micronaut.json.tree.JsonNode;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Proves each variant of the real Consul agent the provider tests rely on. */
@RealConsul
class ConsulAgentSmokeIT {

    private static final Duration SYNC = Duration.ofSeconds(10);

    @Test
    void electsItselfLeaderOnLoopback(ConsulAgent consul) {
        HttpResponse<String> leader = consul.send("GET", "/v1/status/leader", null, null);

        assertThat(leader.statusCode()).isEqualTo(200);
        assertThat(leader.body()).matches("\"127\\.0\\.0\\.1:\\d+\"");
        assertThat(consul.httpAddress().getHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void servesARegisteredServiceFromTheCatalog(ConsulAgent consul) {
        int port = 18080;
        consul.register(ServiceRegistration.of("smoke-web", port).withTags("proxy.enable=true"));

        JsonNode instances = await().atMost(SYNC).until(() -> consul.read("/v1/catalog/service/smoke-web"), i -> i.size() == 1);

        JsonNode instance = instances.get(0);
        assertThat(instance.get("ServiceID").getStringValue()).isEqualTo("smoke-web-" + port);
        assertThat(instance.get("ServiceAddress").getStringValue()).isEqualTo("127.0.0.1");
        assertThat(instance.get("ServicePort").getIntValue()).isEqualTo(port);
        assertThat(instance.get("ServiceTags").get(0).getStringValue()).isEqualTo("proxy.enable=true");

        consul.deregister("smoke-web-" + port);
        await().atMost(SYNC).until(() -> consul.read("/v1/catalog/service/smoke-web").size() == 0);
    }

    @Test
    void reportsTheHealthATestSets(ConsulAgent consul) {
        consul.register(ServiceRegistration.of("smoke-health", 18081).withHealth("critical"));
        await().atMost(SYNC).until(() -> status(consul, "smoke-health").equals("critical"));

        consul.updateHealth("smoke-health-18081", "passing");

        await().atMost(SYNC).until(() -> status(consul, "smoke-health").equals("passing"));
    }

    @ParameterizedTest(name = "{0} token: register answers {1}, sees services and nodes: {2}")
    @CsvSource({
        "none,       403, false",
        "read,       403, true",
        "management, 200, true",
    })
    void enforcesAclsByToken(String tokenKind, int registerStatus, boolean seesCatalog,
            @RealConsul(acl = true) ConsulAgent consul) {
        consul.register(ServiceRegistration.of("smoke-acl", 18082));
        await().atMost(SYNC).until(() -> consul.read("/v1/catalog/service/smoke-acl").size() == 1);
        String token = switch (tokenKind) {
            case "none" -> null;
            case "read" -> consul.readToken();
            default -> consul.managementToken();
        };

        HttpResponse<String> register = consul.send("PUT", "/v1/agent/service/register", token,
                "{\"Name\":\"smoke-acl-" + tokenKind + "\",\"Port\":18083}");
        HttpResponse<String> service = consul.send("GET", "/v1/catalog/service/smoke-acl", token, null);
        HttpResponse<String> nodes = consul.send("GET", "/v1/catalog/nodes", token, null);

        assertThat(register.statusCode()).isEqualTo(registerStatus);
        assertThat(service.statusCode()).isEqualTo(200);
        // Default deny hides what a token may not read rather than refusing the read.
        assertThat(service.body().contains("\"ServiceName\":\"smoke-acl\"")).isEqualTo(seesCatalog);
        assertThat(nodes.body().contains("\"Node\":\"proxy-test\"")).isEqualTo(seesCatalog);
    }

    @Test
    void refusesAnonymousAgentReads(@RealConsul(acl = true) ConsulAgent consul) {
        assertThat(consul.send("GET", "/v1/agent/self", null, null).statusCode()).isEqualTo(403);
        assertThat(consul.send("GET", "/v1/agent/self", consul.managementToken(), null).statusCode()).isEqualTo(200);
    }

    @Test
    void servesHttpsToAClientWithTheTestCertificate(@RealConsul(tls = true) ConsulAgent consul) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(consul.tls().sslContext(true)).build();

        HttpResponse<String> leader = client.send(
                HttpRequest.newBuilder(consul.httpsAddress().resolve("/v1/status/leader")).build(), BodyHandlers.ofString());

        assertThat(leader.statusCode()).isEqualTo(200);
        assertThat(leader.body()).startsWith("\"127.0.0.1:");
    }

    @Test
    void refusesTheHandshakeWithoutAClientCertificate(@RealConsul(tls = true) ConsulAgent consul) {
        HttpClient client = HttpClient.newBuilder().sslContext(consul.tls().sslContext(false)).build();
        HttpRequest request = HttpRequest.newBuilder(consul.httpsAddress().resolve("/v1/status/leader")).build();

        assertThatThrownBy(() -> client.send(request, BodyHandlers.ofString()))
                .isInstanceOf(SSLException.class);
    }

    @Test
    void issuesAConnectLeafCertificateSignedByItsRoot(ConsulAgent consul) throws Exception {
        JsonNode roots = await().atMost(SYNC).until(() -> consul.read("/v1/agent/connect/ca/roots"),
                r -> r.get("Roots").size() > 0);
        String activeRootId = roots.get("ActiveRootID").getStringValue();
        X509Certificate root = null;
        for (JsonNode candidate : roots.get("Roots").values()) {
            if (candidate.get("ID").getStringValue().equals(activeRootId)) {
                root = pem(candidate.get("RootCert").getStringValue());
            }
        }
        assertThat(root).as("the active root among the roots").isNotNull();

        JsonNode leaf = consul.read("/v1/agent/connect/ca/leaf/smoke-web");
        X509Certificate certificate = pem(leaf.get("CertPEM").getStringValue());

        certificate.verify(root.getPublicKey());
        List<String> uris = new ArrayList<>();
        certificate.getSubjectAlternativeNames().forEach(san -> uris.add(String.valueOf(san.get(1))));
        assertThat(uris).anySatisfy(uri -> assertThat(uri).startsWith("spiffe://").endsWith("/svc/smoke-web"));
    }

    @Test
    void restartsOnTheSameAddressWithTheSameTokens(@RealConsul(acl = true, dedicated = true) ConsulAgent consul) {
        URI addressBefore = consul.httpAddress();
        String readToken = consul.readToken();
        consul.register(ServiceRegistration.of("smoke-restart", 18084));

        consul.stop();
        HttpRequest leader = HttpRequest.newBuilder(addressBefore.resolve("/v1/status/leader")).build();
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(leader, BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
        consul.start();

        assertThat(consul.httpAddress()).isEqualTo(addressBefore);
        assertThat(consul.readToken()).isEqualTo(readToken);
        HttpResponse<String> nodes = consul.send("GET", "/v1/catalog/nodes", readToken, null);
        assertThat(nodes.statusCode()).isEqualTo(200);
        assertThat(nodes.body()).contains("\"Node\":\"proxy-test\"");
        // Dev mode keeps the catalog in memory: a restarted agent has forgotten the service.
        assertThat(consul.read("/v1/catalog/service/smoke-restart").size()).isZero();
    }

    private static String status(ConsulAgent consul, String service) {
        JsonNode entries = consul.read("/v1/health/service/" + service);
        if (entries.size() == 0) {
            return "absent";
        }
        for (JsonNode check : entries.get(0).get("Checks").values()) {
            if (check.get("ServiceName").getStringValue().equals(service)) {
                return check.get("Status").getStringValue();
            }
        }
        return "no check";
    }

    private static X509Certificate pem(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
    }
}
