package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bodies far larger than the proxy's heap go through the packaged program both ways: the proxy runs with a 48 MiB
 * heap and streams 96 MiB up and 96 MiB down, so any full buffering would fail with OutOfMemoryError (the launcher
 * exits on it).
 */
class StreamingIT {

    private static final long SIZE = 96L * 1024 * 1024;

    @TempDir
    Path dir;
    private HttpServer backend;
    private ProxyProcess proxy;
    private int web;

    @BeforeEach
    void start() throws IOException {
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/up", ex -> {
            MessageDigest sha = sha256();
            long n = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = ex.getRequestBody()) {
                for (int r; (r = in.read(buf)) > 0; n += r) {
                    sha.update(buf, 0, r);
                }
            }
            byte[] answer = (n + " " + HexFormat.of().formatHex(sha.digest())).getBytes();
            ex.sendResponseHeaders(200, answer.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(answer);
            }
        });
        backend.createContext("/down", ex -> {
            ex.sendResponseHeaders(200, 0); // chunked, no length: the proxy must stream it as it comes
            try (OutputStream out = ex.getResponseBody()) {
                byte[] buf = pattern();
                for (long sent = 0; sent < SIZE; sent += buf.length) {
                    out.write(buf);
                }
            }
        });
        backend.start();
        Path dynamic = dir.resolve("dynamic.yml");
        Files.writeString(dynamic, """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                """.formatted(backend.getAddress().getPort()));
        web = ProxyProcess.freePort();
        proxy = ProxyProcess.command("--entryPoints.web.address=127.0.0.1:" + web,
                        "--providers.file.filename=" + dynamic)
                .env("JAVA_OPTS", "-Xmx48m -XX:MaxDirectMemorySize=32m")
                .start();
        proxy.awaitLine("configuration from provider file applied");
    }

    @AfterEach
    void stop() {
        proxy.close();
        backend.stop(0);
    }

    @Test
    void uploadAndDownloadLargerThanTheHeap() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        MessageDigest expected = sha256();
        byte[] chunk = pattern();
        for (long n = 0; n < SIZE; n += chunk.length) {
            expected.update(chunk);
        }
        Supplier<InputStream> body = () -> new InputStream() {
            private long left = SIZE;
            private int pos;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(Math.min(len, left), chunk.length - pos);
                System.arraycopy(chunk, pos, b, off, n);
                pos = (pos + n) % chunk.length;
                left -= n;
                return n;
            }
        };
        HttpResponse<String> up = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + web + "/up"))
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(body), SIZE))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(up.body()).isEqualTo(SIZE + " " + HexFormat.of().formatHex(expected.digest()));

        HttpResponse<InputStream> down = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + web + "/down"))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        MessageDigest got = sha256();
        long n = 0;
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = down.body()) {
            for (int r; (r = in.read(buf)) > 0; n += r) {
                got.update(buf, 0, r);
            }
        }
        assertThat(n).isEqualTo(SIZE);
        assertThat(HexFormat.of().formatHex(got.digest())).isEqualTo(HexFormat.of().formatHex(sha256digest(SIZE)));
        assertThat(proxy.isAlive()).as("proxy survived with a 48 MiB heap").isTrue();
    }

    private static byte[] sha256digest(long size) {
        MessageDigest d = sha256();
        byte[] chunk = pattern();
        for (long n = 0; n < size; n += chunk.length) {
            d.update(chunk);
        }
        return d.digest();
    }

    private static byte[] pattern() {
        byte[] b = new byte[64 * 1024];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
