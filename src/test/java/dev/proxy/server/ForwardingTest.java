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
}
