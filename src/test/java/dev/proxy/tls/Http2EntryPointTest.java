package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.server.ExchangeRecord;
import dev.proxy.testing.DataPlane;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HTTP/2 on an entry point over real sockets: a JDK client negotiating {@code h2} through ALPN reaches an HTTP/1
 * backend; HTTP/1.1 clients on the same port keep working; the SETTINGS frame carries maxConcurrentStreams; a
 * cleartext client with prior knowledge (h2c) is served HTTP/2 too.
 */
class Http2EntryPointTest {

    private static TestPki pki;
    private static SSLContext trustingTheTestCa;

    @TempDir
    Path dir;
    private NamedBackend backend;
    private DataPlane proxy;

    @BeforeAll
    static void authority() throws Exception {
        pki = new TestPki("proxy h2 test CA");
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", pki.ca());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        trustingTheTestCa = SSLContext.getInstance("TLS");
        trustingTheTestCa.init(null, tmf.getTrustManagers(), null);
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    /**
     * A proxy whose entry point {@code web} has a TLS router and a plain one to an HTTP/1 backend, and a default
     * certificate for 127.0.0.1 (a JDK client sends no SNI for an address, and checks the address against it).
     */
    private void start(String... flags) throws Exception {
        backend = new NamedBackend("backend");
        String[] all = new String[flags.length + 1];
        all[0] = "--entryPoints.web.address=127.0.0.1:0";
        System.arraycopy(flags, 0, all, 1, flags.length);
        proxy = new DataPlane(all);
        Path cert = pki.server("127.0.0.1").write(dir, "ip");
        proxy.apply("""
                http:
                  routers:
                    secure: {rule: "PathPrefix(`/`)", service: backend, tls: {}}
                    plain: {rule: "PathPrefix(`/`)", service: backend}
                  services:
                    backend: {loadBalancer: {servers: [{url: "%s"}]}}
                tls:
                  stores:
                    default:
                      defaultCertificate: {certFile: "%s", keyFile: "%s"}
                """.formatted(backend.url(), cert, dir.resolve("ip.key")));
    }

    private HttpClient client(HttpClient.Version version) {
        return HttpClient.newBuilder().version(version).sslContext(trustingTheTestCa)
                .connectTimeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void anHttp2ClientOverTlsIsServedHttp2AndReachesAnHttp1Backend() throws Exception {
        start();
        HttpClient h2 = client(HttpClient.Version.HTTP_2);
        URI uri = URI.create(proxy.httpsUrl("web", "/hello"));

        HttpResponse<String> get = h2.send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> post = h2.send(HttpRequest.newBuilder(uri)
                        .POST(HttpRequest.BodyPublishers.ofString("x".repeat(100_000))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(get.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).isEqualTo("backend https");
        assertThat(post.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(post.body()).isEqualTo("backend https");
        // Recorded once the response is written, which may be just after the client has it.
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.exchanges.size() == 2);
        assertThat(proxy.exchanges).extracting(ExchangeRecord::protocol).containsExactly("HTTP/2.0", "HTTP/2.0");
    }

    @Test
    void anHttp11ClientOnTheSameTlsEntryPointStillGetsHttp11() throws Exception {
        start();
        HttpResponse<String> r = client(HttpClient.Version.HTTP_1_1).send(
                HttpRequest.newBuilder(URI.create(proxy.httpsUrl("web", "/"))).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(r.body()).isEqualTo("backend https");
        TlsClient.Response raw = TlsClient.sni(null).alpn("http/1.1").get(proxy.port("web"), "/");
        assertThat(raw.alpn()).isEqualTo("http/1.1");
        assertThat(raw.body()).isEqualTo("backend https");
    }

    @Test
    void manyConcurrentStreamsOnOneConnectionAllComplete() throws Exception {
        start();
        HttpClient h2 = client(HttpClient.Version.HTTP_2);
        // The first request sets the connection up (concurrent first requests would each open one of their own).
        h2.send(HttpRequest.newBuilder(URI.create(proxy.httpsUrl("web", "/"))).build(),
                HttpResponse.BodyHandlers.ofString());
        var responses = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> h2.sendAsync(HttpRequest.newBuilder(URI.create(proxy.httpsUrl("web", "/" + i))).build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();
        for (var r : responses) {
            assertThat(r.get().body()).isEqualTo("backend https");
            assertThat(r.get().version()).isEqualTo(HttpClient.Version.HTTP_2);
        }
        assertThat(proxy.server.entryPoints().get("web").openConnections()).isEqualTo(1);
    }

    @ParameterizedTest(name = "flags [{0}] advertise {1}")
    @CsvSource(delimiter = '|', value = {
            "''                                            | 250",
            "--entryPoints.web.http2.maxConcurrentStreams=7 | 7",
    })
    void settingsAdvertiseMaxConcurrentStreams(String flag, long expected) throws Exception {
        if (flag.isEmpty()) {
            start();
        } else {
            start(flag);
        }
        try (SSLSocket tls = TlsClient.sni(null).alpn("h2", "http/1.1").connect(proxy.port("web"))) {
            assertThat(tls.getApplicationProtocol()).isEqualTo("h2");
            assertThat(serverSettings(tls)).containsEntry(MAX_CONCURRENT_STREAMS, expected);
        }
        try (Socket h2c = new Socket()) {
            h2c.connect(new InetSocketAddress("127.0.0.1", proxy.port("web")), 5000);
            h2c.setSoTimeout(10_000);
            assertThat(serverSettings(h2c)).as("cleartext, prior knowledge").containsEntry(MAX_CONCURRENT_STREAMS, expected);
        }
    }

    @Test
    void aClientOfferingOnlyHttp11NeverGetsHttp2() throws Exception {
        start("--entryPoints.web.http2.maxConcurrentStreams=7");
        try (SSLSocket tls = TlsClient.sni(null).alpn("http/1.1").connect(proxy.port("web"))) {
            assertThat(tls.getApplicationProtocol()).isEqualTo("http/1.1");
        }
    }

    @Test
    void anHttp2ConnectionWithoutStreamsIsClosedWithGoawayAtIdleTimeout() throws Exception {
        start("--entryPoints.web.transport.respondingTimeouts.idleTimeout=1s");
        try (Socket h2c = new Socket()) {
            h2c.connect(new InetSocketAddress("127.0.0.1", proxy.port("web")), 5000);
            h2c.setSoTimeout(30_000);
            serverSettings(h2c);
            DataInputStream in = new DataInputStream(h2c.getInputStream());
            java.util.List<Integer> frameTypes = new java.util.ArrayList<>();
            while (true) {
                int b = in.read();
                if (b < 0) {
                    break; // closed by the server
                }
                int length = (b << 16) | in.readUnsignedShort();
                frameTypes.add(in.readUnsignedByte());
                in.skipNBytes(1 + 4 + length);
            }
            assertThat(frameTypes).as("frame types before the close").contains(GOAWAY);
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> proxy.server.entryPoints().get("web").openConnections() == 0);
    }

    private static final int GOAWAY = 0x7;
    private static final int MAX_CONCURRENT_STREAMS = 0x3;

    /** Sends the HTTP/2 preface and an empty SETTINGS frame; returns the parameters of the server's first frame. */
    private static Map<Integer, Long> serverSettings(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[]{0, 0, 0, 0x4, 0, 0, 0, 0, 0}); // SETTINGS, no parameters, stream 0
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int length = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
        int type = in.readUnsignedByte();
        in.readUnsignedByte(); // flags
        in.readInt(); // stream id
        assertThat(type).as("the server's first frame is SETTINGS").isEqualTo(0x4);
        Map<Integer, Long> settings = new HashMap<>();
        for (int i = 0; i < length / 6; i++) {
            settings.put(in.readUnsignedShort(), in.readInt() & 0xffffffffL);
        }
        return settings;
    }
}
