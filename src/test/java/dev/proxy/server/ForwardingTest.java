package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.proxy.testing.DataPlane;

/** The data plane over real sockets with real backends (JDK HTTP servers on loopback). */
class ForwardingTest {

    private final List<HttpServer> backends = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private final List<Map<String, List<String>>> seenHeaders = new CopyOnWriteArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private DataPlane proxy;

    @BeforeEach
    void start() {
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0", "--ping", "--entryPoints.proxy.address=127.0.0.1:0");
    }

    @AfterEach
    void stop() {
        proxy.close();
        backends.forEach(b -> b.stop(0));
    }

    private String backend(String name) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/", ex -> {
            hits.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
            seenHeaders.add(Map.copyOf(ex.getRequestHeaders()));
            byte[] in;
            try (InputStream is = ex.getRequestBody()) {
                in = is.readAllBytes();
            }
            byte[] body = (name + " " + ex.getRequestMethod() + " " + ex.getRequestURI() + " " + in.length).getBytes();
            ex.getResponseHeaders().add("Connection", "X-Secret");
            ex.getResponseHeaders().add("X-Secret", "hop");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        s.start();
        backends.add(s);
        return "http://127.0.0.1:" + s.getAddress().getPort();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(proxy.url("web", path)));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void forwardsToTheMatchedRouterAndAnswers404Otherwise() throws Exception {
        String a = backend("a");
        String b = backend("b");
        proxy.apply("""
                http:
                  routers:
                    ra: {rule: "PathPrefix(`/a`)", service: sa}
                    rb: {rule: "Host(`b.example`)", service: sb}
                  services:
                    sa: {loadBalancer: {servers: [{url: "%s"}]}}
                    sb: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(a, b));
        HttpResponse<String> r = get("/a/x?q=1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("a GET /a/x?q=1 0");
        assertThat(get("/other", "Host", "b.example").body()).startsWith("b GET /other");
        assertThat(get("/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void weightedRoundRobinHonoursWeights() throws Exception {
        String a = backend("a");
        String b = backend("b");
        proxy.apply("""
                http:
                  routers:
                    r: {rule: "PathPrefix(`/`)", service: s}
                  services:
                    s: {loadBalancer: {servers: [{url: "%s", weight: 3}, {url: "%s", weight: 1}]}}
                """.formatted(a, b));
        for (int i = 0; i < 400; i++) {
            assertThat(get("/").statusCode()).isEqualTo(200);
        }
        assertThat(hits.get("a").get()).isEqualTo(300);
        assertThat(hits.get("b").get()).isEqualTo(100);
    }

    @Test
    void stripsHopByHopHeadersBothWaysAndSetsForwardedHeaders() throws Exception {
        String a = backend("a");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        HttpResponse<String> r = get("/", "X-Forwarded-For", "6.6.6.6", "X-Drop", "1", "X-Keep", "1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Secret")).isEmpty();
        Map<String, List<String>> seen = seenHeaders.get(0);
        assertThat(seen.get("X-forwarded-for")).containsExactly("127.0.0.1");
        assertThat(seen.get("X-real-ip")).containsExactly("127.0.0.1");
        assertThat(seen.get("X-forwarded-proto")).containsExactly("http");
        assertThat(seen.get("X-keep")).containsExactly("1");
    }

    @Test
    void unreachableBackendIs502AndNoServerIs503() throws Exception {
        proxy.apply("""
                http:
                  routers:
                    dead: {rule: "Path(`/dead`)", service: dead}
                    none: {rule: "Path(`/none`)", service: none}
                  services:
                    dead: {loadBalancer: {servers: [{url: "http://127.0.0.1:1"}]}}
                    none: {loadBalancer: {servers: [{url: "http://127.0.0.1:1", weight: 0}]}}
                """);
        assertThat(get("/dead").statusCode()).isEqualTo(502);
        HttpResponse<String> none = get("/none");
        assertThat(none.statusCode()).isEqualTo(503);
        assertThat(none.body()).isEqualTo("no available server");
    }

    @Test
    void streamsLargeBodiesBothWays() throws Exception {
        String a = backend("a");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        byte[] upload = new byte[8 * 1024 * 1024];
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(proxy.url("web", "/up")))
                .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo("a POST /up " + upload.length);
    }

    @Test
    void badRouterIsDisabledOthersServe() throws Exception {
        String a = backend("a");
        proxy.apply("""
                http:
                  routers:
                    good: {rule: "Path(`/good`)", service: s}
                    badrule: {rule: "Path(`/x`) &&", service: s}
                    noservice: {rule: "Path(`/y`)", service: missing}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        assertThat(get("/good").statusCode()).isEqualTo(200);
        assertThat(proxy.routing.errors()).containsOnlyKeys("badrule@file", "noservice@file");
        assertThat(proxy.routing.errors().get("noservice@file")).isEqualTo("the service \"missing@file\" does not exist");
    }

    @Test
    void manualPingRoutingWithTwoPathsAndAnAllowList() throws Exception {
        proxy.close();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0", "--ping.manualRouting=true", "--ping.entryPoint=web");
        proxy.apply("""
                http:
                  routers:
                    health: {rule: "Path(`/ping`) || Path(`/healthz`)", service: ping@internal, middlewares: [local]}
                    denied: {rule: "Path(`/denied`)", service: ping@internal, middlewares: [nobody]}
                  middlewares:
                    local: {ipAllowList: {sourceRange: ["127.0.0.1/32", "::1"]}}
                    nobody: {ipAllowList: {sourceRange: ["192.0.2.0/24"]}}
                """);
        assertThat(get("/ping").body()).isEqualTo("OK");
        assertThat(get("/healthz").body()).isEqualTo("OK");
        assertThat(get("/denied").statusCode()).isEqualTo(403);
    }

    @Test
    void webSocketUpgradeIsRelayed() throws Exception {
        try (WebSocketEchoServer ws = new WebSocketEchoServer()) {
            proxy.apply("""
                    http:
                      routers: {r: {rule: "Path(`/ws`)", service: s}}
                      services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                    """.formatted(ws.url()));
            java.util.concurrent.BlockingQueue<String> received = new java.util.concurrent.LinkedBlockingQueue<>();
            java.net.http.WebSocket socket = client.newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + proxy.port("web") + "/ws"), new java.net.http.WebSocket.Listener() {
                        @Override
                        public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w, CharSequence data, boolean last) {
                            received.add(data.toString());
                            w.request(1);
                            return null;
                        }
                    }).get(5, java.util.concurrent.TimeUnit.SECONDS);
            socket.sendText("hello", true).get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(received.poll(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("echo: hello");
            socket.sendText("again", true).get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(received.poll(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("echo: again");
            socket.abort();
        }
    }

    @Test
    void connectionListedHeadersAreStrippedButProxyHeadersStay() throws Exception {
        String a = backend("a");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        assertThat(get("/", "Connection", "X-Drop, X-Forwarded-For", "X-Drop", "1").statusCode()).isEqualTo(200);
        Map<String, List<String>> seen = seenHeaders.get(0);
        assertThat(seen).doesNotContainKey("X-drop");
        assertThat(seen.get("X-forwarded-for")).containsExactly("127.0.0.1");
    }

    @Test
    void forwardedHeadersFromTrustedPeersAreKept() throws Exception {
        proxy.close();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.web.forwardedHeaders.trustedIPs=127.0.0.0/8");
        String a = backend("a");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        assertThat(get("/", "X-Forwarded-For", "203.0.113.9", "X-Forwarded-Proto", "https").statusCode()).isEqualTo(200);
        Map<String, List<String>> seen = seenHeaders.get(0);
        assertThat(seen.get("X-forwarded-for")).containsExactly("203.0.113.9, 127.0.0.1");
        assertThat(seen.get("X-forwarded-proto")).containsExactly("https");
    }

    @Test
    void responseHeadReachesTheClientBeforeABodyTheBackendHoldsBack() throws Exception {
        // The proxy keeps a response head back to send it together with an immediately following end (one write);
        // a head whose body does not follow at once must still go out when the backend's bytes so far are relayed.
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        HttpServer slowBody = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slowBody.createContext("/", ex -> {
            ex.getResponseHeaders().add("X-Head", "early");
            ex.sendResponseHeaders(200, 5);
            try (OutputStream os = ex.getResponseBody()) {
                release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                os.write("hello".getBytes());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        slowBody.start();
        backends.add(slowBody);
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                """.formatted(slowBody.getAddress().getPort()));
        HttpResponse<InputStream> head = client.sendAsync(HttpRequest.newBuilder(URI.create(proxy.url("web", "/")))
                .build(), HttpResponse.BodyHandlers.ofInputStream()).get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(release.getCount()).isEqualTo(1); // the body is still held back
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("X-Head")).contains("early");
        release.countDown();
        try (InputStream body = head.body()) {
            assertThat(new String(body.readAllBytes())).isEqualTo("hello");
        }
    }

    @Test
    void slowBackendIs504WhenResponseHeaderTimeoutIsSet() throws Exception {
        proxy.close();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--serversTransport.forwardingTimeouts.responseHeaderTimeout=200ms");
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        HttpServer slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/", ex -> {
            try {
                release.await(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        slow.start();
        backends.add(slow);
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                """.formatted(slow.getAddress().getPort()));
        HttpResponse<String> r = get("/");
        release.countDown();
        assertThat(r.statusCode()).isEqualTo(504);
    }

    @Test
    void healthCheckTakesAServerOutAndBringsItBack() throws Exception {
        String good = backend("good");
        java.util.concurrent.atomic.AtomicBoolean healthy = new java.util.concurrent.atomic.AtomicBoolean(true);
        HttpServer flaky = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        flaky.createContext("/health", ex -> {
            ex.sendResponseHeaders(healthy.get() ? 200 : 500, -1);
            ex.close();
        });
        flaky.createContext("/", ex -> {
            hits.computeIfAbsent("flaky", k -> new AtomicInteger()).incrementAndGet();
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        flaky.start();
        backends.add(flaky);
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services:
                    s:
                      loadBalancer:
                        servers: [{url: "%s"}, {url: "http://127.0.0.1:%d"}]
                        healthCheck: {path: /health, interval: 50ms, timeout: 1s}
                """.formatted(good, flaky.getAddress().getPort()));
        healthy.set(false);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> {
            hits.remove("flaky");
            for (int i = 0; i < 4; i++) {
                get("/");
            }
            return !hits.containsKey("flaky");
        });
        healthy.set(true);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> {
            get("/");
            get("/");
            return hits.containsKey("flaky");
        });
    }

    @Test
    void stickyCookiePinsAClientToOneServer() throws Exception {
        String a = backend("a");
        String b = backend("b");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services:
                    s: {loadBalancer: {servers: [{url: "%s"}, {url: "%s"}], sticky: {cookie: {name: lb, httpOnly: true}}}}
                """.formatted(a, b));
        HttpResponse<String> first = get("/");
        String setCookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith("lb=").contains("HTTPOnly");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        String server = first.body().substring(0, 1);
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> r = get("/", "Cookie", cookie);
            assertThat(r.body()).startsWith(server);
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void weightedServiceSplitsBetweenServices() throws Exception {
        String v1 = backend("v1");
        String v2 = backend("v2");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: canary}}
                  services:
                    canary: {weighted: {services: [{name: app-v1, weight: 9}, {name: app-v2, weight: 1}]}}
                    app-v1: {loadBalancer: {servers: [{url: "%s"}]}}
                    app-v2: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(v1, v2));
        for (int i = 0; i < 1000; i++) {
            get("/");
        }
        assertThat(hits.get("v1").get()).isEqualTo(900);
        assertThat(hits.get("v2").get()).isEqualTo(100);
    }

    @Test
    void passiveHealthCheckTakesAFailingServerOutForTheWindow() throws Exception {
        String good = backend("good");
        HttpServer failing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        failing.createContext("/", ex -> {
            hits.computeIfAbsent("failing", k -> new AtomicInteger()).incrementAndGet();
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        failing.start();
        backends.add(failing);
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services:
                    s:
                      loadBalancer:
                        servers: [{url: "%s"}, {url: "http://127.0.0.1:%d"}]
                        passiveHealthCheck: {failureWindow: 1m, maxFailedAttempts: 2}
                """.formatted(good, failing.getAddress().getPort()));
        for (int i = 0; i < 20; i++) {
            get("/");
        }
        // Two 500s within the window take it out; round robin would otherwise have sent it 10 of the 20.
        assertThat(hits.get("failing").get()).isEqualTo(2);
        assertThat(hits.get("good").get()).isEqualTo(18);
    }

    @Test
    void stickyWeightedServiceKeepsAClientOnOneMember() throws Exception {
        String v1 = backend("v1");
        String v2 = backend("v2");
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: canary}}
                  services:
                    canary: {weighted: {services: [{name: app-v1}, {name: app-v2}], sticky: {cookie: {name: member}}}}
                    app-v1: {loadBalancer: {servers: [{url: "%s"}]}}
                    app-v2: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(v1, v2));
        HttpResponse<String> first = get("/");
        String setCookie = first.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        for (int i = 0; i < 6; i++) {
            assertThat(get("/", "Cookie", cookie).body()).startsWith(first.body().substring(0, 2));
        }
        assertThat(hits).containsOnlyKeys(first.body().substring(0, 2));
    }

    @Test
    void listenersSeeEveryFinishedExchange() throws Exception {
        String a = backend("a");
        proxy.apply("""
                http:
                  routers: {r: {rule: "Path(`/a`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(a));
        get("/a");
        get("/missing");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> proxy.exchanges.size() == 2);
        var first = proxy.exchanges.get(0);
        assertThat(first.router()).isEqualTo("r@file");
        assertThat(first.service()).isEqualTo("s@file");
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.bytesSent()).isEqualTo("a GET /a 0".length());
        assertThat(first.internal()).isFalse();
        var second = proxy.exchanges.get(1);
        assertThat(second.router()).isNull();
        assertThat(second.status()).isEqualTo(404);
    }
}
