package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.DataPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** TLS on an entry point over real sockets: certificates by SNI, versions, router TLS, hot reload, 421. */
class TlsEntryPointTest {

    /** A TLS router for a.example.com to the {@code secure} backend. */
    private static final String ROUTER_A = "a: {rule: \"Host(`a.example.com`)\", service: secure, tls: {}}";

    private static TestPki pki;

    @TempDir
    Path dir;
    private NamedBackend secure;
    private NamedBackend plain;
    private DataPlane proxy;

    @BeforeAll
    static void authority() throws Exception {
        pki = new TestPki("proxy test CA");
    }

    @BeforeEach
    void start() throws IOException {
        secure = new NamedBackend("secure");
        plain = new NamedBackend("plain");
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
    }

    @AfterEach
    void stop() {
        proxy.close();
        secure.close();
        plain.close();
    }

    private int port() {
        return proxy.port("web");
    }

    /**
     * Applies routers (one YAML line each under {@code http.routers}) with the services {@code secure} and
     * {@code plain}, and {@code tls} (lines under {@code tls:}).
     */
    private void apply(String tls, String... routers) {
        StringBuilder yaml = new StringBuilder("http:\n  routers:\n");
        for (String r : routers) {
            yaml.append("    ").append(r).append('\n');
        }
        yaml.append("""
                  services:
                    secure: {loadBalancer: {servers: [{url: "%s"}]}}
                    plain: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(secure.url(), plain.url()));
        yaml.append("tls:\n");
        tls.lines().forEach(l -> yaml.append("  ").append(l).append('\n'));
        proxy.apply(yaml.toString());
    }

    /** {@code certificates: [...]} with a new certificate for the names (files {@code <file>.crt/.key}). */
    private String certificates(String file, String... names) throws Exception {
        return "certificates: [" + certificate(file, names) + "]";
    }

    /** A certificate (files in the temp dir) as a YAML flow entry of {@code tls.certificates}. */
    private String certificate(String file, String... names) throws Exception {
        Path cert = pki.server(names).write(dir, file);
        return "{certFile: \"" + cert + "\", keyFile: \"" + dir.resolve(file + ".key") + "\"}";
    }

    private static String name(X509Certificate c) {
        return String.join(",", ServerCertificate.namesOf(c));
    }

    @ParameterizedTest(name = "SNI {0} gets {1}")
    @CsvSource({
            "a.example.com, a.example.com",
            "A.Example.COM, a.example.com",
            "b.example.com, b.example.com",
            "x.wild.example.com, *.wild.example.com",
            "deep.x.wild.example.com, proxy default cert",
            "unknown.example.com, proxy default cert",
    })
    void sniPicksTheCertificateAndOtherNamesGetTheGeneratedDefault(String sni, String expected) throws Exception {
        // b is given inline (PEM content in certFile/keyFile), as Traefik allows
        TestPki.Issued b = pki.server("b.example.com");
        apply("""
                certificates:
                  - %s
                  - {certFile: "%s", keyFile: "%s"}
                  - %s
                """.formatted(certificate("a", "a.example.com"), b.certificatePem().replace("\n", "\\n"),
                b.keyPem().replace("\n", "\\n"), certificate("wild", "*.wild.example.com")), ROUTER_A);
        assertThat(name(TlsClient.sni(sni).certificate(port()))).isEqualTo(expected);
    }

    @Test
    void aClientWithoutSniGetsTheStoreDefaultCertificateWhenOneIsConfigured() throws Exception {
        Path fallback = pki.server("fallback.example.com").write(dir, "fallback");
        apply("""
                stores:
                  default:
                    defaultCertificate: {certFile: "%s", keyFile: "%s"}
                """.formatted(fallback, dir.resolve("fallback.key")), ROUTER_A);
        assertThat(name(TlsClient.sni(null).certificate(port()))).isEqualTo("fallback.example.com");
        assertThat(name(TlsClient.sni("other.example.com").certificate(port()))).isEqualTo("fallback.example.com");
    }

    @Test
    void sniStrictRefusesNamesWithoutACertificate() throws Exception {
        apply(certificates("a", "a.example.com") + "\noptions: {default: {sniStrict: true}}", ROUTER_A);
        assertThat(name(TlsClient.sni("a.example.com").certificate(port()))).isEqualTo("a.example.com");
        assertThatThrownBy(() -> TlsClient.sni("unknown.example.com").certificate(port())).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> TlsClient.sni(null).certificate(port())).isInstanceOf(IOException.class);
    }

    @Test
    void tls12And13AreAcceptedAndTls11IsRefused() throws Exception {
        apply(certificates("a", "a.example.com"), ROUTER_A);
        assertThat(TlsClient.sni("a.example.com").protocols("TLSv1.3").get(port(), "/").protocol()).isEqualTo("TLSv1.3");
        TlsClient.Response r12 = TlsClient.sni("a.example.com").protocols("TLSv1.2").get(port(), "/");
        assertThat(r12.protocol()).isEqualTo("TLSv1.2");
        assertThat(r12.body()).isEqualTo("secure https");
        // The same hand-made ClientHello is answered with a ServerHello as TLS 1.2 and with an alert as TLS 1.1.
        assertThat(LegacyClientHello.firstRecord(port(), "a.example.com", 0x0303)).isEqualTo(LegacyClientHello.HANDSHAKE);
        assertThat(LegacyClientHello.firstRecord(port(), "a.example.com", 0x0302))
                .isIn(LegacyClientHello.ALERT, LegacyClientHello.CLOSED);
    }

    @Test
    void optionsApplyPerSniName() throws Exception {
        apply(certificates("ab", "a.example.com", "modern.example.com") + "\noptions: {tls13: {minVersion: VersionTLS13}}",
                ROUTER_A, "modern: {rule: \"Host(`modern.example.com`)\", service: secure, tls: {options: tls13}}");
        assertThat(TlsClient.sni("modern.example.com").protocols("TLSv1.3").get(port(), "/").status()).isEqualTo(200);
        assertThatThrownBy(() -> TlsClient.sni("modern.example.com").protocols("TLSv1.2").get(port(), "/"))
                .isInstanceOf(IOException.class);
        assertThat(TlsClient.sni("a.example.com").protocols("TLSv1.2").get(port(), "/").status()).isEqualTo(200);
    }

    @Test
    void tlsRoutersServeOnlyTlsConnectionsAndOthersOnlyPlainOnes() throws Exception {
        apply(certificates("a", "a.example.com"),
                ROUTER_A,
                "plain: {rule: \"Host(`a.example.com`)\", service: plain}",
                "tlsonly: {rule: \"Host(`tls-only.example.com`)\", service: secure, tls: {}}",
                "plainonly: {rule: \"Host(`plain-only.example.com`)\", service: plain}");
        assertThat(TlsClient.sni("a.example.com").get(port(), "/").body()).isEqualTo("secure https");
        assertThat(PlainClient.get(port(), "a.example.com").body()).isEqualTo("plain http");
        assertThat(PlainClient.get(port(), "tls-only.example.com").status()).isEqualTo(404);
        assertThat(TlsClient.sni("plain-only.example.com").get(port(), "/").status()).isEqualTo(404);
    }

    @Test
    void anEntryPointWithHttpTlsMakesEveryRouterOnItATlsRouter() throws Exception {
        try (DataPlane secured = new DataPlane("--entryPoints.websecure.address=127.0.0.1:0",
                "--entryPoints.websecure.http.tls.options=tls13")) {
            secured.apply("""
                    http:
                      routers:
                        app: {rule: "Host(`a.example.com`)", service: plain}
                      services:
                        plain: {loadBalancer: {servers: [{url: "%s"}]}}
                    tls:
                      %s
                      options: {tls13: {minVersion: VersionTLS13}}
                    """.formatted(plain.url(), certificates("a", "a.example.com")));
            int port = secured.port("websecure");
            assertThat(TlsClient.sni("a.example.com").get(port, "/").body()).isEqualTo("plain https");
            assertThat(PlainClient.get(port, "a.example.com").status()).isEqualTo(404);
            // The entry point's options name resolves in the router's provider: tls13@file, TLS 1.3 only.
            assertThatThrownBy(() -> TlsClient.sni("a.example.com").protocols("TLSv1.2").get(port, "/"))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void anEntryPointWithoutTlsRoutersDoesNotHandshake() throws Exception {
        apply("{}", "plain: {rule: \"Host(`a.example.com`)\", service: plain}");
        assertThatThrownBy(() -> TlsClient.sni("a.example.com").certificate(port())).isInstanceOf(IOException.class);
        assertThat(PlainClient.get(port(), "a.example.com").body()).isEqualTo("plain http");
    }

    @Test
    void aNewCertificateIsServedFromTheNextHandshakeAfterTheConfigurationChanges() throws Exception {
        apply(certificates("first", "a.example.com"), ROUTER_A);
        X509Certificate first = TlsClient.sni("a.example.com").certificate(port());
        apply(certificates("second", "a.example.com"), ROUTER_A);
        X509Certificate second = TlsClient.sni("a.example.com").certificate(port());
        assertThat(second.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
        assertThat(name(second)).isEqualTo("a.example.com");
    }

    @Test
    void sessionsSurviveAReloadThatChangesNeitherOptionsNorCertificate() throws Exception {
        String certificates = certificates("a", "a.example.com");
        apply(certificates, ROUTER_A);
        TlsClient client = TlsClient.sni("a.example.com").protocols("TLSv1.2");
        String first = client.sessionId(port());
        assertThat(client.sessionId(port())).as("resumed").isEqualTo(first);
        apply(certificates, ROUTER_A, "other: {rule: \"Host(`other.example.com`)\", service: plain}");
        assertThat(client.sessionId(port())).as("resumed after an unrelated change").isEqualTo(first);
        apply(certificates + "\noptions: {default: {sniStrict: true}}", ROUTER_A);
        assertThat(client.sessionId(port())).as("new options, new session").isNotEqualTo(first);
    }

    @Test
    void aCertificateFileRewrittenInPlaceIsServedWithoutAConfigurationChange() throws Exception {
        apply(certificates("a", "a.example.com"), ROUTER_A);
        X509Certificate before = TlsClient.sni("a.example.com").certificate(port());
        // Rewrite both files (as a renewal by certbot would), key first, then the certificate.
        TestPki.Issued renewed = pki.server("a.example.com");
        Files.writeString(dir.resolve("a.key"), renewed.keyPem());
        Files.writeString(dir.resolve("a.crt"), renewed.certificatePem());
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(TlsClient.sni("a.example.com").certificate(port()).getSerialNumber())
                        .isEqualTo(renewed.certificate().getSerialNumber()));
        assertThat(before.getSerialNumber()).isNotEqualTo(renewed.certificate().getSerialNumber());
    }

    @Test
    void aHostWhoseOptionsDifferFromTheSniNamesGets421() throws Exception {
        apply(certificates("all", "a.example.com", "b.example.com", "modern.example.com")
                        + "\noptions: {tls13: {minVersion: VersionTLS13}}",
                ROUTER_A,
                "b: {rule: \"Host(`b.example.com`)\", service: secure, tls: {}}",
                "modern: {rule: \"Host(`modern.example.com`)\", service: secure, tls: {options: tls13}}");
        assertThat(TlsClient.sni("a.example.com").host("modern.example.com").get(port(), "/").status()).isEqualTo(421);
        assertThat(TlsClient.sni("modern.example.com").host("a.example.com").get(port(), "/").status()).isEqualTo(421);
        assertThat(TlsClient.sni(null).host("modern.example.com").get(port(), "/").status()).isEqualTo(421);
        // Same options on both names: the connection may be shared (as HTTP/2 clients do).
        assertThat(TlsClient.sni("a.example.com").host("b.example.com").get(port(), "/").status()).isEqualTo(200);
        assertThat(TlsClient.sni("a.example.com").host("a.example.com:443").get(port(), "/").status()).isEqualTo(200);
    }

    @Test
    void invalidOptionsDisableTheRoutersThatUseThemAndNoOthers() throws Exception {
        apply(certificates("all", "a.example.com", "weak.example.com")
                        + "\noptions: {broken: {cipherSuites: [TLS_NOT_A_REAL_SUITE]}}",
                ROUTER_A,
                "weak: {rule: \"Host(`weak.example.com`)\", service: secure, tls: {options: broken}}",
                "typo: {rule: \"Host(`typo.example.com`)\", service: secure, tls: {options: nosuch}}");
        assertThat(proxy.routing.errors()).containsOnlyKeys("weak@file", "typo@file");
        assertThat(proxy.routing.errors().get("weak@file"))
                .isEqualTo("TLS options broken@file are invalid: cipher suite TLS_NOT_A_REAL_SUITE is not supported by this JVM");
        assertThat(proxy.routing.errors().get("typo@file")).isEqualTo("TLS options \"nosuch@file\" do not exist");
        assertThat(TlsClient.sni("weak.example.com").get(port(), "/").status()).isEqualTo(404);
        assertThat(TlsClient.sni("a.example.com").get(port(), "/").status()).isEqualTo(200);
    }
}
