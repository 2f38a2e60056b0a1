package dev.proxy.testing.pebble;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real ACME server for tests: Let's Encrypt's Pebble with its DNS companion {@code pebble-challtestsrv}, both on
 * 127.0.0.1 and random ports, built once per machine by {@code src/test/services/pebble/build.sh}. Validation is real
 * ({@code PEBBLE_VA_ALWAYS_VALID} is not set): every name resolves to 127.0.0.1 through the companion's DNS server,
 * and Pebble connects to the given HTTP-01 and TLS-ALPN-01 ports there — the proxy's entry points.
 */
public final class Pebble implements AutoCloseable {

    /** The ports Pebble will listen on, reserved before the proxy is configured with its directory URL. */
    public record Ports(int acme, int management, int dns, int dnsManagement) {
        public String directory() {
            return "https://127.0.0.1:" + acme + "/dir";
        }
    }

    private final Path home;
    private final Ports ports;
    private final List<Process> processes = new ArrayList<>();
    private final Path logs;

    private Pebble(Path home, Ports ports, Path logs) {
        this.home = home;
        this.ports = ports;
        this.logs = logs;
    }

    public static Ports reservePorts() throws IOException {
        return new Ports(freePort(), freePort(), freePort(), freePort());
    }

    /** The minica root that signs Pebble's own HTTPS certificate (to trust its API, not the certificates it issues). */
    public static Path apiCa() throws IOException {
        return build().resolve("certs/pebble.minica.pem");
    }

    /**
     * Starts Pebble and waits until its directory answers.
     *
     * @param httpPort where Pebble connects for HTTP-01 validations
     * @param tlsPort  where Pebble connects for TLS-ALPN-01 validations
     * @param validity the lifetime of the certificates it issues
     * @param work     a directory for its configuration and logs
     */
    public static Pebble start(Ports ports, int httpPort, int tlsPort, Duration validity, Path work) throws Exception {
        Path home = build();
        Files.createDirectories(work);
        Pebble pebble = new Pebble(home, ports, work);
        try {
            pebble.launch("challtestsrv", List.of(home.resolve("pebble-challtestsrv").toString(),
                    "-dnsserver", "127.0.0.1:" + ports.dns(), "-management", "127.0.0.1:" + ports.dnsManagement(),
                    "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "",
                    "-http01", "", "-https01", "", "-tlsalpn01", "", "-doh", ""), List.of());
            Path config = work.resolve("pebble-config.json");
            Files.writeString(config, """
                    {"pebble": {
                      "listenAddress": "127.0.0.1:%d",
                      "managementListenAddress": "127.0.0.1:%d",
                      "certificate": "%s",
                      "privateKey": "%s",
                      "httpPort": %d,
                      "tlsPort": %d,
                      "ocspResponderURL": "",
                      "externalAccountBindingRequired": false,
                      "retryAfter": {"authz": 1, "order": 1},
                      "keyAlgorithm": "ecdsa",
                      "profiles": {"default": {"description": "test", "validityPeriod": %d}}
                    }}
                    """.formatted(ports.acme(), ports.management(), home.resolve("certs/localhost/cert.pem"),
                    home.resolve("certs/localhost/key.pem"), httpPort, tlsPort, validity.toSeconds()));
            pebble.awaitListening(ports.dns(), "pebble-challtestsrv");
            pebble.launch("pebble", List.of(home.resolve("pebble").toString(), "-config", config.toString(),
                            "-dnsserver", "127.0.0.1:" + ports.dns()),
                    // Real validation, no artificial delays, no refused nonces, a fresh validation for every order.
                    List.of("PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0", "PEBBLE_AUTHZREUSE=0"));
            pebble.awaitListening(ports.acme(), "pebble");
            return pebble;
        } catch (Exception e) {
            pebble.close();
            throw e;
        }
    }

    public String directory() {
        return ports.directory();
    }

    /** The root that signs the certificates Pebble issues (made anew at each start). */
    public X509Certificate issuingRoot() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        try (InputStream in = Files.newInputStream(apiCa())) {
            trust.setCertificateEntry("minica", x509.generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        HttpClient client = HttpClient.newBuilder().sslContext(ssl).build();
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + ports.management() + "/roots/0")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return (X509Certificate) x509.generateCertificate(new java.io.ByteArrayInputStream(r.body()));
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void launch(String name, List<String> command, List<String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + ".log").toFile()));
        for (String e : env) {
            int eq = e.indexOf('=');
            pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
        }
        pb.environment().remove("PEBBLE_VA_ALWAYS_VALID");
        processes.add(pb.start());
    }

    /** Runs the build script (a no-op once built) and returns the directory with the binaries. */
    private static synchronized Path build() throws IOException {
        Path script = Path.of(System.getProperty("proxy.basedir", System.getProperty("user.dir")),
                "src/test/services/pebble/build.sh");
        Process p = new ProcessBuilder("bash", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (p.waitFor() != 0) {
                throw new IOException(script + " failed (exit " + p.exitValue() + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String[] lines = out.split("\n");
        return Path.of(lines[lines.length - 1]);
    }

    private void awaitListening(int port, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IOException(what + " exited; see " + logs);
                }
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                // Polling a port that a child process opens: there is no event to wait on.
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        throw new IOException(what + " did not listen on " + port + "; see " + logs);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
