package dev.proxy.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Loopback;
import dev.proxy.testing.RawHttp;
import dev.proxy.testing.RecordingBackend;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Request smuggling and framing over raw sockets: each hostile request is followed, on the same connection, by a
 * pipelined {@code GET /smuggled}. A refused request gets its status and the connection closes; neither it nor the
 * pipelined request reaches the recording backend. An accepted spelling reaches the backend with the body the
 * proxy framed, and so does the pipelined request after it. Decisions per row (and why) are in README "Security".
 */
class RequestFramingTest {

    private static final String HOST = "Host: a.example\r\n";
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n";
    private static final int ACCEPTED = 0;

    private static DataPlane proxy;
    private static RecordingBackend backend;

    @BeforeAll
    static void start() {
        backend = new RecordingBackend();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        proxy.apply("""
                http:
                  routers: {all: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(backend.url()));
    }

    @AfterAll
    static void stop() {
        proxy.close();
        backend.close();
    }

    private int seenBefore;

    @BeforeEach
    void mark() {
        seenBefore = backend.received().size();
    }

    static Stream<Arguments> requests() {
        return Stream.of(
                // ---- accepted: the framing is unambiguous ----
                row("Content-Length only", post("Content-Length: 5\r\n", "hello"), ACCEPTED, "hello"),
                row("chunked", post("Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), ACCEPTED, "hello"),
                row("TE CHUNKED in upper case (case-insensitive token; nginx and HAProxy accept)",
                        post("Transfer-Encoding: CHUNKED\r\n", "5\r\nhello\r\n0\r\n\r\n"), ACCEPTED, "hello"),
                row("TE 'chunked ' trailing space (OWS is not part of a field value)",
                        post("Transfer-Encoding: chunked \r\n", "5\r\nhello\r\n0\r\n\r\n"), ACCEPTED, "hello"),
                row("TE ' chunked' extra leading space",
                        post("Transfer-Encoding:  chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), ACCEPTED, "hello"),
                row("TE tab before chunked", post("Transfer-Encoding:\tchunked\r\n", "5\r\nhello\r\n0\r\n\r\n"),
                        ACCEPTED, "hello"),
                row("chunk extension", post("Transfer-Encoding: chunked\r\n", "5;ext=1\r\nhello\r\n0\r\n\r\n"),
                        ACCEPTED, "hello"),
                row("chunked with a trailer", post("Transfer-Encoding: chunked\r\n",
                        "5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n"), ACCEPTED, "hello"),
                // ---- Content-Length and Transfer-Encoding together or repeated ----
                row("CL and TE", post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
                        "0\r\n\r\n"), 400, null),
                row("TE and CL", post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                        "0\r\n\r\n"), 400, null),
                row("CL list '5, 5'", post("Content-Length: 5, 5\r\n", "hello"), 400, null),
                row("CL list '5,6'", post("Content-Length: 5,6\r\n", "hello"), 400, null),
                row("CL twice, same value", post("Content-Length: 5\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("CL twice, different values", post("Content-Length: 5\r\nContent-Length: 6\r\n", "hello"), 400, null),
                row("CL +5", post("Content-Length: +5\r\n", "hello"), 400, null),
                row("CL -1", post("Content-Length: -1\r\n", "hello"), 400, null),
                row("CL not a number", post("Content-Length: five\r\n", "hello"), 400, null),
                row("CL overflow", post("Content-Length: 99999999999999999999\r\n", "hello"), 400, null),
                // ---- obfuscated Transfer-Encoding ----
                row("TE 'chunked, chunked'", post("Transfer-Encoding: chunked, chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE twice", post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
                        "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE xchunked", post("Transfer-Encoding: xchunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE identity", post("Transfer-Encoding: identity\r\n", "hello"), 400, null),
                row("TE 'gzip, chunked' (codings are not decoded)", post("Transfer-Encoding: gzip, chunked\r\n",
                        "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE 'chunked, gzip'", post("Transfer-Encoding: chunked, gzip\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE vertical tab", post("Transfer-Encoding: \u000bchunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("TE obs-fold continuation line", post("Transfer-Encoding: gzip\r\n chunked\r\n",
                        "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("obs-fold on another header (replaced by a space, as RFC 9112 §5.2 allows)",
                        post("X-A: a\r\n b\r\nContent-Length: 5\r\n", "hello"), ACCEPTED, "hello"),
                row("TE on HTTP/1.0", "POST /first HTTP/1.0\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n", 400, null),
                // ---- bad chunks (the head may have gone upstream: the backend must see it aborted) ----
                row("chunk size not hex", post("Transfer-Encoding: chunked\r\n", "zz\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("chunk size overflow", post("Transfer-Encoding: chunked\r\n",
                        "fffffffffffffffff\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("chunk size negative", post("Transfer-Encoding: chunked\r\n", "-5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("chunk data without CRLF", post("Transfer-Encoding: chunked\r\n", "5\r\nhelloXX0\r\n\r\n"), 400, null),
                row("chunk size line ending in bare LF", post("Transfer-Encoding: chunked\r\n",
                        "5\nhello\r\n0\r\n\r\n"), 400, null),
                row("chunk data ending in bare LF", post("Transfer-Encoding: chunked\r\n",
                        "5\r\nhello\n0\r\n\r\n"), 400, null),
                row("chunk extension with bare LF", post("Transfer-Encoding: chunked\r\n",
                        "5;a\nhello\r\n0\r\n\r\n"), 400, null),
                // ---- line endings and header bytes ----
                row("bare LF line endings", "POST /first HTTP/1.1\nHost: a.example\nContent-Length: 5\n\nhello", 400, null),
                row("bare CR in the head", "POST /first HTTP/1.1\r\nHost: a.example\rX-A: 1\r\nContent-Length: 5\r\n\r\nhello",
                        400, null),
                row("CR in a header value", post("X-A: a\rb\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("NUL in a header value", post("X-A: a\u0000b\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("NUL in a header name", post("X\u0000A: b\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("space in a header name", post("X A: b\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("whitespace before the colon", post("Content-Length : 5\r\n", "hello"), 400, null),
                row("whitespace before the colon of TE", post("Transfer-Encoding : chunked\r\n",
                        "5\r\nhello\r\n0\r\n\r\n"), 400, null),
                row("tab before the colon", post("Content-Length\t: 5\r\n", "hello"), 400, null),
                row("header line without colon", post("X-A b\r\nContent-Length: 5\r\n", "hello"), 400, null),
                row("empty header name", post(": b\r\nContent-Length: 5\r\n", "hello"), 400, null),
                // ---- request line and Host ----
                // Netty splits the request line on runs of whitespace (RFC 9112 §3 allows it); the line is rebuilt
                // with single spaces before it goes upstream, so no backend reads it another way.
                row("two spaces in the request line", "GET  /first HTTP/1.1\r\n" + HOST + "\r\n", ACCEPTED, ""),
                row("tabs in the request line", "GET\t/first\tHTTP/1.1\r\n" + HOST + "\r\n", ACCEPTED, ""),
                row("no version (HTTP/0.9)", "GET /first\r\n" + HOST + "\r\n", 400, null),
                row("extra word in the request line", "GET /first HTTP/1.1 x\r\n" + HOST + "\r\n", 400, null),
                row("space in the target", "GET /fi rst HTTP/1.1\r\n" + HOST + "\r\n", 400, null),
                row("lower-case version (sent upstream as HTTP/1.1)", "GET /first http/1.1\r\n" + HOST + "\r\n",
                        ACCEPTED, ""),
                row("HTTP/2.0 in an HTTP/1 request line", "GET /first HTTP/2.0\r\n" + HOST + "\r\n", 505, null),
                row("no Host in HTTP/1.1", "GET /first HTTP/1.1\r\n\r\n", 400, null),
                row("two Host headers", "GET /first HTTP/1.1\r\n" + HOST + "Host: b.example\r\n\r\n", 400, null),
                row("Host with a path", "GET /first HTTP/1.1\r\nHost: a.example/x\r\n\r\n", 400, null),
                row("Host with user info", "GET /first HTTP/1.1\r\nHost: u@a.example\r\n\r\n", 400, null));
    }

    private static String post(String headers, String body) {
        return "POST /first HTTP/1.1\r\n" + HOST + headers + "\r\n" + body;
    }

    private static Arguments row(String name, String raw, int status, String body) {
        return Arguments.of(name, raw, status, body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void refusedFramingClosesTheConnectionAndNothingReachesTheBackend(String name, String raw, int status,
                                                                      String body) {
        RawHttp.Reply reply = RawHttp.exchange(proxy.port("web"), raw + SMUGGLED, 5_000);
        if (status == ACCEPTED) {
            assertThat(reply.statuses()).as(reply.text()).containsExactly(200, 200);
            var seen = backend.received().subList(seenBefore, backend.received().size());
            assertThat(seen).extracting(RecordingBackend.Received::target).containsExactly("/first", "/smuggled");
            assertThat(seen.get(0).bodyText()).isEqualTo(body);
            assertThat(seen.get(0).header("Transfer-Encoding")).hasSizeLessThanOrEqualTo(1);
            return;
        }
        assertThat(reply.statuses()).as(reply.text()).containsExactly(status);
        assertThat(reply.text()).doesNotContain("X-Backend");
        assertThat(reply.closed()).as("connection closed").isTrue();
        // Whatever the proxy sent upstream was written before it answered; a request after it on a fresh
        // connection is seen after anything that could have leaked.
        assertThat(Loopback.get(proxy.port("web"), "/sentinel").statusCode()).isEqualTo(200);
        var seen = backend.received().subList(seenBefore, backend.received().size());
        assertThat(seen).extracting(RecordingBackend.Received::target).containsExactly("/sentinel");
    }
}
