package dev.proxy.testing.consul;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micronaut.json.tree.JsonNode;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.SocketException;
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
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
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
        JsonNode service = consul.read("/v1/catalog/service/smoke-acl", token);
        JsonNode nodes = consul.read("/v1/catalog/nodes", token);

        assertThat(register.statusCode()).isEqualTo(registerStatus);
        // Default deny hides what a token may not read (200, empty) rather than refusing the read.
        assertThat(service.size()).isEqualTo(seesCatalog ? 1 : 0);
        assertThat(nodeNames(nodes)).isEqualTo(seesCatalog ? List.of("proxy-test") : List.of());
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

    @ParameterizedTest(name = "{0} with client certificate: {1}")
    @CsvSource({
        "TLSv1.2, true",
        "TLSv1.3, true",
        "TLSv1.2, false",
        "TLSv1.3, false",
    })
    void demandsTheClientCertificateOnHttps(String protocol, boolean presentCertificate,
            @RealConsul(tls = true) ConsulAgent consul) throws Throwable {
        URI https = consul.httpsAddress();
        SSLSocketFactory factory = consul.tls().sslContext(presentCertificate).getSocketFactory();

        try (SSLSocket socket = (SSLSocket) factory.createSocket(https.getHost(), https.getPort())) {
            socket.setSoTimeout(5_000);
            socket.setEnabledProtocols(new String[] {protocol});
            ThrowingCallable exchange = () -> {
                socket.startHandshake();
                socket.getOutputStream().write(
                        "GET /v1/status/leader HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String statusLine = new BufferedReader(
                        new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
                assertThat(statusLine).isEqualTo("HTTP/1.1 200 OK");
            };
            if (presentCertificate) {
                exchange.call();
            } else {
                // The server refuses with an alert and closes. Which error the client sees is a race: the
                // alert itself (SSLException), or a reset/broken pipe on its next write (SocketException).
                // TLS 1.3 clients finish their side of the handshake first, so there it shows on the request.
                // (The JDK HttpClient sometimes misses that TLS 1.3 alert and waits forever: a raw socket here.)
                assertThatThrownBy(exchange).isInstanceOfAny(SSLException.class, SocketException.class);
            }
        }
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
        assertThat(nodeNames(consul.read("/v1/catalog/nodes", readToken))).containsExactly("proxy-test");
        // Dev mode keeps the catalog in memory: a restarted agent has forgotten the service.
        assertThat(consul.read("/v1/catalog/service/smoke-restart").size()).isZero();
    }

    private static List<String> nodeNames(JsonNode nodes) {
        List<String> names = new ArrayList<>();
        nodes.values().forEach(node -> names.add(node.get("Node").getStringValue()));
        return names;
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
