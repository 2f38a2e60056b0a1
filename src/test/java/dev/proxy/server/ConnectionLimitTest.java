package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import dev.proxy.testing.Http;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code entryPoints.<name>.transport.maxConnections} over real sockets: over the cap a new connection is closed
 * before anything is read, the open ones keep being served, and the ping entry point answers while a public entry
 * point is full of idle, slow and in-flight connections.
 */
class ConnectionLimitTest {

    private DataPlane proxy;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket s : clients) {
            s.close();
        }
        proxy.close();
    }

    @Test
    void overTheCapNewConnectionsAreClosedAndOpenOnesKeepWorking() throws Exception {
        try (FixedBackend backend = new FixedBackend("hello")) {
            proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                    "--entryPoints.web.transport.maxConnections=3", "--metrics.prometheus",
                    "--entryPoints.proxy.address=127.0.0.1:0");
            proxy.apply(route(backend.url()));
            for (int i = 0; i < 3; i++) {
                Socket s = connect("web");
                assertThat(statusLine(s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).isEqualTo("HTTP/1.1 200 OK");
            }

            Socket fourth = connect("web");
            assertThat(closedByPeer(fourth, Duration.ofSeconds(5))).as("the connection over the cap is closed").isTrue();
            assertThat(proxy.server.entryPoints().get("web").refusedConnections()).isEqualTo(1);
            assertThat(Http.get(proxy.url("proxy", "/metrics")).body())
                    .contains("proxy_entrypoint_refused_connections_total{entrypoint=\"web\"} 1.0");

            for (Socket open : clients.subList(0, 3)) {
                assertThat(statusLine(open, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).as("keep-alive connections go on")
                        .isEqualTo("HTTP/1.1 200 OK");
            }
            clients.get(0).close();
            await("a freed place is taken again").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        try (Socket s = new Socket("127.0.0.1", proxy.port("web"))) {
                            s.setSoTimeout(2000);
                            return "HTTP/1.1 200 OK".equals(statusLine(s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
                        } catch (IOException refused) {
                            return false;
                        }
                    });
        }
    }

    @Test
    void pingAnswersOnItsOwnEntryPointWhileAPublicOneIsSaturated() throws Exception {
        // The backend holds every request until the end: requests in flight that occupy connections for good.
        CountDownLatch release = new CountDownLatch(1);
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.setExecutor(Executors.newCachedThreadPool());
        backend.createContext("/", ex -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        backend.start();
        int cap = 60;
        try {
            proxy = new DataPlane("--ping", "--entryPoints.proxy.address=127.0.0.1:0",
                    "--entryPoints.web.address=127.0.0.1:0", "--entryPoints.web.transport.maxConnections=" + cap);
            proxy.apply(route("http://127.0.0.1:" + backend.getAddress().getPort()));
            EntryPoint web = proxy.server.entryPoints().get("web");
            List<Socket> inFlight = new ArrayList<>();
            for (int i = 0; i < cap; i++) {
                Socket s = connect("web");
                switch (i % 3) {
                    case 0 -> { // a request waiting for the backend
                        s.getOutputStream().write("GET /held HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        inFlight.add(s);
                    }
                    case 1 -> s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a".getBytes(StandardCharsets.US_ASCII));
                    default -> { } // connected, silent
                }
            }
            await("all connections open, the held requests in flight").atMost(Duration.ofSeconds(10))
                    .until(() -> web.openConnections() == cap && web.requestsInFlight() == inFlight.size());
            Socket over = connect("web");
            assertThat(closedByPeer(over, Duration.ofSeconds(5))).as("the public entry point is full").isTrue();

            for (int i = 0; i < 20; i++) {
                try (Socket ping = new Socket("127.0.0.1", proxy.port("proxy"))) {
                    ping.setSoTimeout(2000); // "promptly": a starved event loop or accept thread would not answer
                    assertThat(statusLine(ping, "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                            .isEqualTo("HTTP/1.1 200 OK");
                }
            }

            release.countDown();
            for (Socket s : inFlight) {
                s.setSoTimeout(10_000);
                assertThat(statusLine(s, "")).as("the held requests complete").isEqualTo("HTTP/1.1 200 OK");
            }
        } finally {
            release.countDown();
            backend.stop(0);
        }
    }

    private static String route(String url) {
        return """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", entryPoints: [web], service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(url);
    }

    private Socket connect(String entryPoint) throws IOException {
        Socket s = new Socket("127.0.0.1", proxy.port(entryPoint));
        s.setSoTimeout(5000);
        clients.add(s);
        return s;
    }

    /** Sends {@code request} (if any) and returns the status line of the response; reads the whole response head and body. */
    private static String statusLine(Socket s, String request) throws IOException {
        if (!request.isEmpty()) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        InputStream in = s.getInputStream();
        String status = readLine(in);
        int length = 0;
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return status;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c == -1) {
                throw new IOException("connection closed after \"" + line + "\"");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static boolean closedByPeer(Socket s, Duration within) throws IOException {
        s.setSoTimeout((int) within.toMillis());
        try {
            return s.getInputStream().read() == -1;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }
}
