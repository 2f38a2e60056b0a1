package dev.proxy.server.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.server.ExchangeRecord;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Loopback;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The forwarding-loop guard ({@code CDN-Loop}, RFC 8586): its header parsing, then over real sockets. */
class LoopGuardTest {

    @ParameterizedTest(name = "CDN-Loop: {0} -> seen {1}")
    @CsvSource(delimiter = '|', value = {
            "proxy-00ff             | true",
            "PROXY-00FF             | true",
            "cloudflare, proxy-00ff | true",
            "proxy-00ff; v=1        | true",
            "'proxy-00ff ,other'    | true",
            "proxy-00ff0            | false",
            "xproxy-00ff            | false",
            "proxy-11ff, cloudflare | false",
            "''                     | false",
    })
    void recognisesItsOwnIdAmongTheHeaderEntries(String value, boolean seen) {
        HttpHeaders h = new DefaultHttpHeaders().add(LoopGuard.CDN_LOOP, value);
        assertThat(new LoopGuard("proxy-00ff").seen(h)).isEqualTo(seen);
    }

    @Test
    void itsIdInASecondHeaderLineCountsToo() {
        HttpHeaders h = new DefaultHttpHeaders().add(LoopGuard.CDN_LOOP, "cdn").add(LoopGuard.CDN_LOOP, "proxy-00ff");
        assertThat(new LoopGuard("proxy-00ff").seen(h)).isTrue();
        assertThat(new LoopGuard().id()).matches("proxy-[0-9a-f]{16}").isNotEqualTo(new LoopGuard().id());
    }

    @Test
    void aServiceThatPointsAtTheProxyItselfGets400AtTheSecondHop() {
        try (DataPlane proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0")) {
            proxy.apply("""
                    http:
                      routers: {self: {rule: "PathPrefix(`/`)", service: self}}
                      services: {self: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                    """.formatted(proxy.port("web")));

            HttpResponse<String> r = Loopback.get(proxy.port("web"), "/loop");

            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).contains("forwarding loop");
            await("both hops recorded").atMost(Duration.ofSeconds(5)).until(() -> onWeb(proxy).size() >= 2);
            List<ExchangeRecord> hops = onWeb(proxy);
            assertThat(hops).as("requests at the entry point: the client's and one loop").hasSize(2)
                    .extracting(ExchangeRecord::status).containsExactly(400, 400);
            assertThat(proxy.server.entryPoints().get("web").requestsInFlight()).isZero();
        }
    }

    @Test
    void twoChainedProxiesForwardAndTheBackendSeesBothMarks() throws Exception {
        List<List<String>> seenByBackend = new CopyOnWriteArrayList<>();
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            seenByBackend.add(ex.getRequestHeaders().getOrDefault("CDN-Loop", List.of()));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        backend.start();
        try (DataPlane inner = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
             DataPlane edge = new DataPlane("--entryPoints.web.address=127.0.0.1:0")) {
            inner.apply(route(backend.getAddress().getPort()));
            edge.apply(route(inner.port("web")));

            assertThat(Loopback.get(edge.port("web"), "/chained").statusCode()).isEqualTo(204);

            assertThat(seenByBackend).hasSize(1);
            List<String> entries = seenByBackend.get(0).stream()
                    .flatMap(v -> List.of(v.split(",")).stream()).map(String::trim).toList();
            assertThat(entries).hasSize(2).allMatch(e -> e.matches("proxy-[0-9a-f]{16}"));
            assertThat(entries.get(0)).isNotEqualTo(entries.get(1));
        } finally {
            backend.stop(0);
        }
    }

    private static String route(int port) {
        return """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                """.formatted(port);
    }

    private static List<ExchangeRecord> onWeb(DataPlane proxy) {
        return proxy.exchanges.stream().filter(e -> e.entryPoint().equals("web")).toList();
    }
}
