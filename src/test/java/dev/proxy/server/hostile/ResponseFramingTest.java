package dev.proxy.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.RawHttp;
import dev.proxy.testing.RecordingBackend;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A backend answering with ambiguous framing: its response is never relayed as if it were complete, the client
 * gets 502 (or, when the head was fine and the body goes bad, a cut-off response), and the backend connection is not
 * reused — the next request arrives on a new connection.
 */
class ResponseFramingTest {

    private DataPlane proxy;
    private RecordingBackend backend;

    @BeforeEach
    void start() {
        backend = new RecordingBackend();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        proxy.apply("""
                http:
                  routers: {all: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(backend.url()));
    }

    @AfterEach
    void stop() {
        proxy.close();
        backend.close();
    }

    static Stream<Arguments> responses() {
        String head = "HTTP/1.1 200 OK\r\n";
        return Stream.of(
                Arguments.of("TE and CL", head + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n", true),
                Arguments.of("CL and TE", head + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n", true),
                Arguments.of("CL list 5, 5", head + "Content-Length: 5, 5\r\n\r\nhello", true),
                Arguments.of("CL twice, different", head + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello", true),
                Arguments.of("CL not a number", head + "Content-Length: five\r\n\r\nhello", true),
                Arguments.of("bare LF line endings", "HTTP/1.1 200 OK\nContent-Length: 5\n\nhello", true),
                Arguments.of("NUL in a header value", head + "X-A: a\u0000b\r\nContent-Length: 5\r\n\r\nhello", true),
                Arguments.of("chunk size not hex (head already fine)", head + "Transfer-Encoding: chunked\r\n\r\n"
                        + "zz\r\nhello\r\n0\r\n\r\n", false),
                Arguments.of("chunk data without CRLF (head already fine)", head + "Transfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhelloXX0\r\n\r\n", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responses")
    void ambiguousResponseIsNeverRelayedAsCompleteNorItsConnectionReused(String name, String bad, boolean badHead) {
        backend.respondWith(r -> r.target().equals("/bad") ? bad : RecordingBackend.ok("fine"));
        RawHttp.Reply reply = RawHttp.exchange(proxy.port("web"),
                "GET /bad HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n", 5_000);
        if (badHead) {
            assertThat(reply.statuses()).as(reply.text()).containsExactly(502);
        } else {
            // The head may have been relayed; the body never completes and the client connection closes.
            assertThat(reply.text()).doesNotContain("hello").doesNotEndWith("0\r\n\r\n");
            assertThat(reply.closed()).isTrue();
        }
        RawHttp.Reply next = RawHttp.exchange(proxy.port("web"),
                "GET /next HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n", 5_000);
        assertThat(next.statuses()).containsExactly(200);
        var seen = backend.received();
        assertThat(seen).extracting(RecordingBackend.Received::target).containsExactly("/bad", "/next");
        assertThat(seen.get(1).connection()).as("backend connection reused").isNotEqualTo(seen.get(0).connection());
    }

    /**
     * Whitespace between a response header name and its colon: Netty refuses it in requests only; in a response the
     * name is taken without it and the head is re-serialised, so the client gets a clean Content-Length (RFC 9112
     * §5.1 asks a proxy to remove such whitespace before forwarding a response).
     */
    @org.junit.jupiter.api.Test
    void whitespaceBeforeAColonInAResponseIsRemovedNotRelayed() {
        backend.respondWith(r -> "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello");
        RawHttp.Reply reply = RawHttp.exchange(proxy.port("web"),
                "GET /ws HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n", 5_000);
        assertThat(reply.statuses()).containsExactly(200);
        assertThat(reply.text()).containsIgnoringCase("content-length: 5\r\n").doesNotContain("Content-Length :")
                .endsWith("\r\n\r\nhello");
    }
}
