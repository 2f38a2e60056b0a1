package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.testing.DataPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.KeyManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Client certificates (mTLS) by {@code clientAuthType}, over real sockets, with TLS 1.2 and 1.3 clients. */
class ClientAuthTest {

    private static TestPki pki;
    private static TestPki stranger;

    @TempDir
    Path dir;
    private NamedBackend backend;
    private DataPlane proxy;

    @BeforeAll
    static void authorities() throws Exception {
        pki = new TestPki("proxy test CA");
        stranger = new TestPki("someone else's CA");
    }

    @BeforeEach
    void start() throws Exception {
        backend = new NamedBackend("secure");
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
    }

    @AfterEach
    void stop() {
        proxy.close();
        backend.close();
    }

    private void configure(String clientAuthType) throws Exception {
        Path cert = pki.server("mtls.example.com", "open.example.com").write(dir, "server");
        Path ca = Files.writeString(dir.resolve("ca.pem"), pki.caPem());
        proxy.apply("""
                http:
                  routers:
                    mtls: {rule: "Host(`mtls.example.com`)", service: s, tls: {options: clients}}
                    open: {rule: "Host(`open.example.com`)", service: s, tls: {}}
                  services:
                    s: {loadBalancer: {servers: [{url: "%s"}]}}
                tls:
                  certificates: [{certFile: "%s", keyFile: "%s"}]
                  options:
                    clients:
                      clientAuth: {caFiles: ["%s"], clientAuthType: %s}
                """.formatted(backend.url(), cert, dir.resolve("server.key"), ca, clientAuthType));
    }

    private static KeyManager[] certificate(String who) throws Exception {
        return switch (who) {
            case "none" -> null;
            case "trusted" -> pki.client("alice").keyManagers();
            case "untrusted" -> stranger.client("mallory").keyManagers();
            default -> throw new IllegalArgumentException(who);
        };
    }

    @ParameterizedTest(name = "{0}, {1} client certificate, {2}: {3}")
    @CsvSource({
            "RequireAndVerifyClientCert, none,      TLSv1.3, refused",
            "RequireAndVerifyClientCert, none,      TLSv1.2, refused",
            "RequireAndVerifyClientCert, untrusted, TLSv1.3, refused",
            "RequireAndVerifyClientCert, untrusted, TLSv1.2, refused",
            "RequireAndVerifyClientCert, trusted,   TLSv1.3, served",
            "RequireAndVerifyClientCert, trusted,   TLSv1.2, served",
            "VerifyClientCertIfGiven,    none,      TLSv1.3, served",
            "VerifyClientCertIfGiven,    untrusted, TLSv1.3, refused",
            "VerifyClientCertIfGiven,    trusted,   TLSv1.3, served",
            "RequireAnyClientCert,       none,      TLSv1.3, refused",
            "RequireAnyClientCert,       untrusted, TLSv1.3, served",
            "RequestClientCert,          none,      TLSv1.3, served",
            "RequestClientCert,          untrusted, TLSv1.3, served",
            "NoClientCert,               none,      TLSv1.3, served",
    })
    void clientCertificatesAreAskedForAndCheckedAsConfigured(String type, String who, String version, String outcome)
            throws Exception {
        configure(type);
        TlsClient client = TlsClient.sni("mtls.example.com").protocols(version).clientCertificate(certificate(who));
        if (outcome.equals("served")) {
            assertThat(client.get(proxy.port("web"), "/").body()).isEqualTo("secure https");
        } else {
            // TLS 1.3 clients finish their side of the handshake first; the refusal arrives with the first read.
            assertThatThrownBy(() -> client.get(proxy.port("web"), "/")).isInstanceOf(IOException.class);
        }
        // Names with the default options never ask for a certificate.
        assertThat(TlsClient.sni("open.example.com").protocols(version).get(proxy.port("web"), "/").status())
                .isEqualTo(200);
    }
}
