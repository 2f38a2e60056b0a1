package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.DataPlane;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The responding timeouts over raw sockets: idle, total read deadline (slow headers and bodies), write. */
class RespondingTimeoutsTest {

    private DataPlane proxy;

    @AfterEach
    void stop() {
        proxy.close();
    }

    private static boolean closedByPeer(Socket s) {
        try {
            s.setSoTimeout(20);
            return s.getInputStream().read() == -1;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void idleKeepAliveConnectionIsClosedAfterIdleTimeout() throws Exception {
        proxy = new DataPlane("--ping", "--entryPoints.proxy.address=127.0.0.1:0",
                "--entryPoints.proxy.transport.respondingTimeouts.idleTimeout=300ms");
        try (Socket s = new Socket("127.0.0.1", proxy.port("proxy"))) {
            OutputStream out = s.getOutputStream();
            out.write("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256];
            int n = in.read(buf);
            assertThat(new String(buf, 0, n, StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK");
            long start = System.nanoTime();
            await().atMost(Duration.ofSeconds(5)).until(() -> closedByPeer(s));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        }
    }

    /**
     * Slow clients (slowloris, slow POST): whatever part of the request trickles, the connection is closed at the
     * total {@code readTimeout} — an idle timer reset on every byte would never fire at one byte every 200 ms.
     * {@code head} is sent at once, then {@code trickled} one byte every 200 ms; a request that reached the backend
     * is cut there too, so the backend never gets the whole body.
     */
    static Stream<Arguments> slowRequests() {
        return Stream.of(
                Arguments.of("header bytes", "", "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(200)),
                Arguments.of("Content-Length body", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n",
                        "b".repeat(200)),
                Arguments.of("chunked body", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                        "1\r\nc\r\n".repeat(40) + "0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slowRequests")
    void aClientTricklingItsRequestIsClosedAtTheTotalReadDeadline(String what, String head, String trickled)
            throws Exception {
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.web.transport.respondingTimeouts.readTimeout=1s");
        try (var backend = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            proxy.apply("""
                    http:
                      routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                      services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                    """.formatted(backend.getLocalPort()));
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> readUntilClosed(backend));
            try (Socket s = new Socket("127.0.0.1", proxy.port("web"))) {
                OutputStream out = s.getOutputStream();
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] bytes = trickled.getBytes(StandardCharsets.US_ASCII);
                long start = System.nanoTime();
                boolean closed = false;
                for (int i = 0; i < bytes.length && !closed; i++) {
                    try {
                        out.write(bytes[i]);
                        out.flush();
                    } catch (SocketException reset) {
                        closed = true;
                        break;
                    }
                    closed = closedByPeer(s);
                    LockSupport.parkNanos(Duration.ofMillis(200).toNanos()); // the client's pace, not a wait for the proxy
                }
                assertThat(closed).as("closed before the client finished trickling").isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(900), Duration.ofSeconds(4));
            }
            if (!head.isEmpty()) {
                byte[] atBackend = received.get(10, TimeUnit.SECONDS);
                assertThat(new String(atBackend, StandardCharsets.US_ASCII)).as("what reached the backend")
                        .startsWith("POST / HTTP/1.1").doesNotContain(trickled);
            }
        }
    }

    /** Accepts one connection and returns what it received until the proxy closed it (empty if none came). */
    private static byte[] readUntilClosed(java.net.ServerSocket backend) {
        try {
            backend.setSoTimeout(10_000);
            try (Socket accepted = backend.accept()) {
                accepted.setSoTimeout(10_000);
                java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                byte[] buf = new byte[1024];
                try {
                    for (int n; (n = accepted.getInputStream().read(buf)) != -1; ) {
                        got.write(buf, 0, n);
                    }
                } catch (SocketException reset) {
                    // closed by a reset: what came so far is the answer
                }
                return got.toByteArray();
            }
        } catch (java.net.SocketTimeoutException nothing) {
            return new byte[0];
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aResponseSlowerThanWriteTimeoutClosesTheConnection() throws Exception {
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.web.transport.respondingTimeouts.writeTimeout=300ms");
        try (var backend = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            proxy.apply("""
                    http:
                      routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                      services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                    """.formatted(backend.getLocalPort()));
            try (Socket s = new Socket("127.0.0.1", proxy.port("web"))) {
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                try (Socket accepted = backend.accept()) { // the backend never answers
                    await().atMost(Duration.ofSeconds(5)).until(() -> closedByPeer(s));
                }
            }
        }
    }
}
