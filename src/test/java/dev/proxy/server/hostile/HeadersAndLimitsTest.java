package dev.proxy.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.RawHttp;
import dev.proxy.testing.RecordingBackend;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Forwarded headers and size limits over raw sockets, with a recording backend that shows exactly which headers it
 * got and whether a body reached it. Entry points: {@code web} (untrusted peers), {@code trusted}
 * ({@code forwardedHeaders.trustedIPs=127.0.0.1/32}), {@code limited} ({@code http.maxRequestBodyBytes=100}); on
 * {@code web}, {@code /small} has a {@code buffering} middleware with {@code maxRequestBodyBytes: 10}.
 */
class HeadersAndLimitsTest {

    private static DataPlane proxy;
    private static RecordingBackend backend;

    @BeforeAll
    static void start() {
        backend = new RecordingBackend();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.trusted.address=127.0.0.1:0",
                "--entryPoints.trusted.forwardedHeaders.trustedIPs=127.0.0.1/32",
                "--entryPoints.limited.address=127.0.0.1:0",
                "--entryPoints.limited.http.maxRequestBodyBytes=100");
        proxy.apply("""
                http:
                  routers:
                    small: {rule: "PathPrefix(`/small`)", service: s, middlewares: [small]}
                    all: {rule: "PathPrefix(`/`)", service: s}
                  middlewares:
                    small: {buffering: {maxRequestBodyBytes: 10}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(backend.url()));
    }

    @AfterAll
    static void stop() {
        proxy.close();
        backend.close();
    }

    private int before;
    private int connectionsBefore;
    private int abortedBefore;

    @BeforeEach
    void mark() {
        before = backend.received().size();
        connectionsBefore = backend.connections();
        abortedBefore = backend.aborted().size();
    }

    static Stream<Arguments> forwarding() {
        return Stream.of(
                row("Connection: X-Forwarded-For does not remove it", "web", "Connection: X-Forwarded-For\r\n",
                        Map.of("X-Forwarded-For", List.of("127.0.0.1"))),
                row("Connection: X-Real-Ip does not remove it", "web", "Connection: X-Real-Ip\r\n",
                        Map.of("X-Real-Ip", List.of("127.0.0.1"))),
                row("Connection listing every forwarded header", "web",
                        "Connection: X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-Port, X-Forwarded-Server\r\n",
                        Map.of("X-Forwarded-Host", List.of("a.example"), "X-Forwarded-Proto", List.of("http"),
                                "X-Forwarded-Port", List.of(String.valueOf(0)))),
                row("X-Forwarded-For from an untrusted peer is replaced", "web", "X-Forwarded-For: 6.6.6.6\r\n",
                        Map.of("X-Forwarded-For", List.of("127.0.0.1"))),
                row("X-Forwarded-Host from an untrusted peer is replaced", "web", "X-Forwarded-Host: evil\r\n",
                        Map.of("X-Forwarded-Host", List.of("a.example"))),
                row("X-Real-Ip from an untrusted peer is replaced", "web", "X-Real-Ip: 6.6.6.6\r\n",
                        Map.of("X-Real-Ip", List.of("127.0.0.1"))),
                row("Forwarded from an untrusted peer is removed", "web", "Forwarded: for=6.6.6.6\r\n",
                        Map.of("Forwarded", List.of())),
                row("X_Forwarded_For alias dropped", "web", "X_Forwarded_For: 6.6.6.6\r\n",
                        Map.of("X_Forwarded_For", List.of(), "X-Forwarded-For", List.of("127.0.0.1"))),
                row("X-Forwarded_For alias dropped", "web", "X-Forwarded_For: 6.6.6.6\r\n",
                        Map.of("X-Forwarded_For", List.of())),
                row("x_real_ip alias dropped", "web", "x_real_ip: 6.6.6.6\r\n", Map.of("x_real_ip", List.of())),
                row("other underscore headers kept", "web", "X_Custom: 1\r\n", Map.of("X_Custom", List.of("1"))),
                row("trusted peer: X-Forwarded-For appended to", "trusted", "X-Forwarded-For: 6.6.6.6\r\n",
                        Map.of("X-Forwarded-For", List.of("6.6.6.6, 127.0.0.1"))),
                row("trusted peer: X-Forwarded-Host kept", "trusted", "X-Forwarded-Host: front.example\r\n",
                        Map.of("X-Forwarded-Host", List.of("front.example"))),
                row("trusted peer: underscore alias still dropped", "trusted", "X_Forwarded_For: 6.6.6.6\r\n",
                        Map.of("X_Forwarded_For", List.of(), "X-Forwarded-For", List.of("127.0.0.1"))),
                row("trusted peer: Connection cannot remove X-Forwarded-For", "trusted",
                        "X-Forwarded-For: 6.6.6.6\r\nConnection: X-Forwarded-For\r\n",
                        Map.of("X-Forwarded-For", List.of("127.0.0.1"))));
    }

    private static Arguments row(String name, String entryPoint, String headers, Map<String, List<String>> expected) {
        return Arguments.of(name, entryPoint, headers, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forwarding")
    void forwardedHeadersAreTheProxysOwn(String name, String entryPoint, String headers,
                                         Map<String, List<String>> expected) {
        RawHttp.Reply reply = RawHttp.exchange(proxy.port(entryPoint), "GET /h HTTP/1.1\r\nHost: a.example\r\n"
                + headers + "Connection: close\r\n\r\n", 5_000);
        assertThat(reply.statuses()).as(reply.text()).containsExactly(200);
        var seen = backend.received().get(before);
        expected.forEach((header, values) -> {
            List<String> want = header.equals("X-Forwarded-Port") ? List.of(String.valueOf(proxy.port(entryPoint)))
                    : values;
            assertThat(seen.header(header)).as(header).isEqualTo(want);
        });
        // Header names as sent upstream: no alias that maps to a forwarded header survives.
        assertThat(seen.headers()).extracting(h -> h[0].replace('_', '-').toLowerCase())
                .doesNotHaveDuplicates();
    }

    static Stream<Arguments> limits() {
        String longLine = "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: a.example\r\n\r\n";
        String bigHeaders = "GET /x HTTP/1.1\r\nHost: a.example\r\n" + "X-Big: " + "b".repeat(33 * 1024) + "\r\n\r\n";
        String manyHeaders = "GET /x HTTP/1.1\r\nHost: a.example\r\n" + "X-Many: 0123456789012345678901234567\r\n".repeat(1000)
                + "\r\n";
        return Stream.of(
                Arguments.of("request line over 8 KiB", "web", longLine, 414, false),
                Arguments.of("one header over 32 KiB", "web", bigHeaders, 431, false),
                Arguments.of("headers over 32 KiB in all", "web", manyHeaders, 431, false),
                Arguments.of("Content-Length over the entry point limit", "limited",
                        post("/x", "Content-Length: 101\r\n", "x".repeat(101)), 413, false),
                Arguments.of("Content-Length over the limit with Expect: 100-continue (no 100 sent)", "limited",
                        post("/x", "Content-Length: 101\r\nExpect: 100-continue\r\n", ""), 413, false),
                Arguments.of("Content-Length at the entry point limit", "limited",
                        post("/x", "Content-Length: 100\r\n", "x".repeat(100)), 200, true),
                Arguments.of("chunked body over the entry point limit", "limited",
                        post("/x", "Transfer-Encoding: chunked\r\n", "40\r\n" + "x".repeat(64) + "\r\n40\r\n"
                                + "x".repeat(64) + "\r\n0\r\n\r\n"), 413, false),
                Arguments.of("chunked body at the entry point limit", "limited",
                        post("/x", "Transfer-Encoding: chunked\r\n", "32\r\n" + "x".repeat(50) + "\r\n32\r\n"
                                + "x".repeat(50) + "\r\n0\r\n\r\n"), 200, true),
                Arguments.of("Content-Length over the buffering middleware limit", "web",
                        post("/small", "Content-Length: 11\r\n", "x".repeat(11)), 413, false),
                Arguments.of("chunked body over the buffering middleware limit", "web",
                        post("/small", "Transfer-Encoding: chunked\r\n", "6\r\nxxxxxx\r\n6\r\nxxxxxx\r\n0\r\n\r\n"),
                        413, false),
                Arguments.of("Content-Length at the buffering middleware limit", "web",
                        post("/small", "Content-Length: 10\r\n", "x".repeat(10)), 200, true),
                Arguments.of("no limit on web outside /small", "web",
                        post("/big", "Content-Length: 1000\r\n", "x".repeat(1000)), 200, true));
    }

    private static String post(String path, String headers, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n" + headers + "\r\n" + body;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limits")
    void limitsAreEnforcedBeforeTheBackendSeesAWholeRequest(String name, String entryPoint, String raw, int status,
                                                             boolean reaches) {
        RawHttp.Reply reply = RawHttp.exchange(proxy.port(entryPoint), raw, 5_000);
        assertThat(reply.statuses()).as(reply.text()).containsExactly(status);
        assertThat(reply.text()).doesNotContain("100 Continue");
        assertThat(reply.closed()).isTrue();
        if (reaches) {
            assertThat(backend.received()).hasSize(before + 1);
            return;
        }
        assertThat(backend.received()).as("a complete request reached the backend").hasSize(before);
        if (raw.contains("Content-Length")) {
            // 413 on the declared length: the backend was not even contacted.
            assertThat(backend.connections()).isEqualTo(connectionsBefore);
        } else if (backend.connections() > connectionsBefore) {
            // A chunked body streamed until it crossed the limit: the backend saw the request aborted.
            Awaitility.await().until(() -> backend.aborted().size() > abortedBefore);
        }
    }

    @Test
    void aNegativeBodyLimitIsRefusedWithItsKeyAndValue() {
        assertThatThrownBy(() -> new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.web.http.maxRequestBodyBytes=-1"))
                .hasMessageContaining("maxRequestBodyBytes=-1").hasMessageContaining("must be 0 (no limit)");
    }
}
