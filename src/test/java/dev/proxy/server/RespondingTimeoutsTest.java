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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The responding timeouts over raw sockets: idle, total read deadline, write. */
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

    @Test
    void aClientTricklingHeaderBytesIsClosedAtTheTotalReadDeadline() throws Exception {
        proxy = new DataPlane("--ping", "--entryPoints.proxy.address=127.0.0.1:0",
                "--entryPoints.proxy.transport.respondingTimeouts.readTimeout=500ms");
        try (Socket s = new Socket("127.0.0.1", proxy.port("proxy"))) {
            OutputStream out = s.getOutputStream();
            byte[] request = "GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII);
            long start = System.nanoTime();
            boolean closed = false;
            // One byte every 50 ms: an idle timer reset on every byte would never fire.
            for (int i = 0; i < request.length && !closed; i++) {
                try {
                    out.write(request[i]);
                    out.flush();
                } catch (SocketException reset) {
                    closed = true;
                    break;
                }
                closed = closedByPeer(s);
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(30).toNanos()); // the client's pace, not a wait for the proxy
            }
            assertThat(closed).as("closed before the client finished trickling").isTrue();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isBetween(Duration.ofMillis(450), Duration.ofMillis(2500));
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
