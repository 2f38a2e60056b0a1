package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.provider.Backoff;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.pebble.Pebble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificate resolvers against a real ACME server (Pebble) with real validation: HTTP-01 on the {@code web} entry
 * point, TLS-ALPN-01 on {@code websecure}; certificates stored and reused after a restart; renewal before expiry.
 */
class AcmeResolverIT {

    /** Orders that fail are retried within seconds here, not minutes. */
    private static final Backoff QUICK_RETRIES = new Backoff(Duration.ofSeconds(1), 2, 0, Duration.ofSeconds(5));
    private static final Duration ISSUANCE = Duration.ofSeconds(90);

    @TempDir
    Path dir;
    private NamedBackend backend;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void backend() throws Exception {
        backend = new NamedBackend("app");
        open.add(backend);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private DataPlane proxy(Pebble.Ports ca) throws Exception {
        String resolver = "--certificatesResolvers.";
        DataPlane proxy = new DataPlane(QUICK_RETRIES,
                "--entryPoints.web.address=127.0.0.1:0", "--entryPoints.websecure.address=127.0.0.1:0",
                resolver + "le.acme.caServer=" + ca.directory(),
                resolver + "le.acme.caCertificates=" + Pebble.apiCa(),
                resolver + "le.acme.email=ops@example.com",
                resolver + "le.acme.keyType=EC256",
                resolver + "le.acme.storage=" + dir.resolve("acme.json"),
                resolver + "le.acme.httpChallenge.entryPoint=web",
                resolver + "alpn.acme.caServer=" + ca.directory(),
                resolver + "alpn.acme.caCertificates=" + Pebble.apiCa(),
                resolver + "alpn.acme.keyType=EC256",
                resolver + "alpn.acme.storage=" + dir.resolve("acme.json"),
                resolver + "alpn.acme.tlsChallenge=true");
        open.add(proxy);
        return proxy;
    }

    private Pebble pebble(Pebble.Ports ports, DataPlane proxy, Duration validity) throws Exception {
        Pebble pebble = Pebble.start(ports, proxy.port("web"), proxy.port("websecure"), validity, dir.resolve("pebble"));
        open.add(pebble);
        return pebble;
    }

    private void route(DataPlane proxy) {
        proxy.apply("""
                http:
                  routers:
                    a: {rule: "Host(`a.example.com`)", service: app, entryPoints: [websecure], tls: {certResolver: le}}
                    b: {rule: "Host(`b.example.com`) || Host(`www.b.example.com`)", service: app, entryPoints: [websecure],
                        tls: {certResolver: le}}
                    c: {rule: "Host(`c.example.com`)", service: app, entryPoints: [websecure], tls: {certResolver: alpn}}
                  services:
                    app: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(backend.url()));
    }

    /** The chain served for the name once it is one Pebble issued (the generated default is served until then). */
    private static List<X509Certificate> awaitIssued(DataPlane proxy, String name, Duration atMost) {
        List<List<X509Certificate>> seen = new ArrayList<>(1);
        await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
            List<X509Certificate> chain = TlsClient.sni(name).chain(proxy.port("websecure"));
            seen.add(0, chain);
            return chain.get(0).getIssuerX500Principal().getName().contains("Pebble");
        });
        return seen.get(0);
    }

    private static void assertChainsTo(X509Certificate root, List<X509Certificate> chain) throws Exception {
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(root, null)));
        parameters.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509").generateCertPath(chain),
                parameters);
    }

    @Test
    void obtainsCertificatesThroughHttp01AndTlsAlpn01AndReusesThemAfterARestart() throws Exception {
        Pebble.Ports ports = Pebble.reservePorts();
        DataPlane proxy = proxy(ports);
        Pebble pebble = pebble(ports, proxy, Duration.ofDays(90));
        route(proxy);

        List<X509Certificate> a = awaitIssued(proxy, "a.example.com", ISSUANCE);
        List<X509Certificate> b = awaitIssued(proxy, "www.b.example.com", ISSUANCE);
        List<X509Certificate> c = awaitIssued(proxy, "c.example.com", ISSUANCE);
        X509Certificate root = pebble.issuingRoot();
        assertChainsTo(root, a);
        assertChainsTo(root, b);
        assertChainsTo(root, c);
        assertThat(ServerCertificate.namesOf(a.get(0))).containsExactly("a.example.com");
        // One certificate for every Host name of a router's rule, the first one as its main name.
        assertThat(ServerCertificate.namesOf(b.get(0))).containsExactlyInAnyOrder("b.example.com", "www.b.example.com");
        assertThat(ServerCertificate.namesOf(c.get(0))).containsExactly("c.example.com");
        assertThat(TlsClient.sni("a.example.com").get(proxy.port("websecure"), "/").body()).isEqualTo("app https");

        Path storage = dir.resolve("acme.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(storage))).isEqualTo("rw-------");
        assertThat(Files.readString(storage)).contains("\"le\"", "\"alpn\"", "a.example.com", "www.b.example.com");

        // Restart with the same storage and no CA at all: the stored certificates are served, none is ordered.
        pebble.close();
        proxy.close();
        DataPlane restarted = proxy(ports);
        route(restarted);
        assertThat(TlsClient.sni("a.example.com").certificate(restarted.port("websecure")).getSerialNumber())
                .isEqualTo(a.get(0).getSerialNumber());
        assertThat(TlsClient.sni("b.example.com").certificate(restarted.port("websecure")).getSerialNumber())
                .isEqualTo(b.get(0).getSerialNumber());
        assertThat(TlsClient.sni("c.example.com").certificate(restarted.port("websecure")).getSerialNumber())
                .isEqualTo(c.get(0).getSerialNumber());
    }

    @Test
    void renewsACertificateBeforeItExpires() throws Exception {
        Pebble.Ports ports = Pebble.reservePorts();
        DataPlane proxy = proxy(ports);
        // 30 s certificates: renewed a third of their lifetime before expiry, about 20 s after issuance.
        pebble(ports, proxy, Duration.ofSeconds(30));
        route(proxy);
        X509Certificate first = awaitIssued(proxy, "a.example.com", ISSUANCE).get(0);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
                !TlsClient.sni("a.example.com").certificate(proxy.port("websecure")).getSerialNumber()
                        .equals(first.getSerialNumber()));
        X509Certificate renewed = TlsClient.sni("a.example.com").certificate(proxy.port("websecure"));
        assertThat(renewed.getIssuerX500Principal().getName()).contains("Pebble");
        assertThat(renewed.getNotAfter()).isAfter(first.getNotAfter());
        // Renewed before the old one expired, so clients never saw an expired certificate.
        assertThat(renewed.getNotBefore()).isBefore(first.getNotAfter());
    }
}
