package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import com.sun.net.httpserver.HttpExchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.BrotliDecoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** compress over real sockets: negotiation, each encoding decodes to the original, and what is never compressed. */
class CompressTest {

    static final byte[] TEXT = "The quick brown fox jumps over the lazy dog. ".repeat(200).getBytes(StandardCharsets.UTF_8);

    private final CountDownLatch secondHalf = new CountDownLatch(1);
    @RegisterExtension
    final OneRoute route = OneRoute.of(() -> TestBackend.with(this::respond), Middlewares::new);

    @BeforeEach
    void compressEverything() {
        configure("{compress: true}");
    }

    @AfterEach
    void releaseBackend() {
        secondHalf.countDown();
    }

    private void configure(String middleware) {
        route.through(middleware);
    }

    /** The path says what to answer: /text, /small, /png, /sse, /gzipped, /stream, /stream-small, /slow, /204. */
    private void respond(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        switch (path) {
            case "/small" -> TestBackend.send(ex, 200, "text/plain", "short".getBytes(StandardCharsets.UTF_8));
            case "/png" -> TestBackend.send(ex, 200, "image/png", TEXT);
            case "/sse" -> TestBackend.send(ex, 200, "text/event-stream", TEXT);
            case "/json" -> TestBackend.send(ex, 200, "application/json; charset=utf-8", TEXT);
            case "/204" -> TestBackend.send(ex, 204, null, new byte[0]);
            case "/gzipped" -> {
                ex.getResponseHeaders().set("Content-Encoding", "gzip");
                TestBackend.send(ex, 200, "text/plain", gzip(TEXT));
            }
            case "/stream", "/stream-small", "/slow" -> {
                ex.getResponseHeaders().set("Content-Type", "text/plain");
                ex.sendResponseHeaders(200, 0); // chunked: no Content-Length
                byte[] body = path.equals("/stream-small") ? "tiny".getBytes(StandardCharsets.UTF_8) : TEXT;
                try (OutputStream os = ex.getResponseBody()) {
                    int half = body.length / 2;
                    os.write(body, 0, half);
                    os.flush();
                    if (path.equals("/slow")) {
                        try {
                            secondHalf.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    os.write(body, half, body.length - half);
                }
            }
            default -> {
                if (ex.getRequestMethod().equals("HEAD")) {
                    ex.getResponseHeaders().set("Content-Type", "text/plain");
                    ex.getResponseHeaders().set("Content-Length", Integer.toString(TEXT.length));
                    ex.sendResponseHeaders(200, -1);
                    ex.close();
                } else {
                    TestBackend.send(ex, 200, "text/plain", TEXT);
                }
            }
        }
    }

    private HttpResponse<byte[]> get(String path, String acceptEncoding) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(route.proxy.url("web", path))), acceptEncoding);
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder b, String acceptEncoding) throws Exception {
        if (acceptEncoding != null) {
            b.header("Accept-Encoding", acceptEncoding);
        }
        return route.client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static byte[] gzip(byte[] in) throws IOException {
        var out = new java.io.ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(in);
        }
        return out.toByteArray();
    }

    static InputStream decoding(String encoding, InputStream in) throws IOException {
        return switch (encoding) {
            case "gzip" -> new GZIPInputStream(in);
            case "br" -> new NettyDecoding(in, new BrotliDecoder());
            case "zstd" -> new ZstdInputStream(in);
            default -> in;
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gzip", "br", "zstd"})
    void eachEncodingDecodesToTheOriginal(String encoding) throws Exception {
        HttpResponse<byte[]> r = get("/text", encoding);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue(encoding);
        assertThat(r.headers().firstValue("Content-Length")).isEmpty();
        assertThat(r.headers().allValues("Vary")).containsExactly("Accept-Encoding");
        assertThat(r.body().length).isLessThan(TEXT.length / 4);
        assertThat(decoding(encoding, new ByteArrayInputStream(r.body())).readAllBytes()).isEqualTo(TEXT);
    }

    @ParameterizedTest(name = "Accept-Encoding \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', value = {
            "gzip, br                      | gzip",     // equal q: our order (gzip, br, zstd) decides
            "br;q=1.0, gzip;q=0.8          | br",
            "gzip;q=0.5, zstd              | zstd",
            "*                             | gzip",
            "br;q=0, *;q=0.1               | gzip",
            "GZIP;Q=0.3                    | gzip",
            "gzip;q=0, br;q=0, zstd;q=0    | identity",
            "identity                      | identity",
            "deflate                       | identity",
            "gzip;q=2                      | identity"}) // not a valid q-value: not acceptable
    void negotiation(String acceptEncoding, String expected) throws Exception {
        HttpResponse<byte[]> r = get("/text", acceptEncoding);
        assertThat(r.headers().firstValue("Content-Encoding").orElse("identity")).isEqualTo(expected);
        assertThat(decoding(expected, new ByteArrayInputStream(r.body())).readAllBytes()).isEqualTo(TEXT);
    }

    @Test
    void encodingsOrderAndDefaultEncodingAreConfigurable() throws Exception {
        configure("{compress: {encodings: [zstd, gzip], defaultEncoding: gzip}}");
        assertThat(get("/text", "gzip, br, zstd").headers().firstValue("Content-Encoding")).hasValue("zstd");
        assertThat(get("/text", "br").headers().firstValue("Content-Encoding")).isEmpty();
        HttpResponse<byte[]> none = get("/text", null); // no Accept-Encoding at all: the default encoding
        assertThat(none.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(decoding("gzip", new ByteArrayInputStream(none.body())).readAllBytes()).isEqualTo(TEXT);
    }

    @ParameterizedTest(name = "{0} is sent as it is")
    @ValueSource(strings = {"/small", "/png", "/sse", "/204", "/stream-small"})
    void notCompressed(String path) throws Exception {
        HttpResponse<byte[]> r = get(path, "gzip");
        assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
        byte[] expected = switch (path) {
            case "/small" -> "short".getBytes(StandardCharsets.UTF_8);
            case "/stream-small" -> "tiny".getBytes(StandardCharsets.UTF_8);
            case "/204" -> new byte[0];
            default -> TEXT;
        };
        assertThat(r.body()).isEqualTo(expected);
    }

    @Test
    void noAcceptEncodingNoCompressionButVary() throws Exception {
        HttpResponse<byte[]> r = get("/text", null);
        assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(r.headers().allValues("Vary")).containsExactly("Accept-Encoding");
        assertThat(r.body()).isEqualTo(TEXT);
    }

    @Test
    void headRequestIsNotCompressed() throws Exception {
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(URI.create(route.proxy.url("web", "/text")))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()), "gzip");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(r.headers().firstValue("Content-Length")).hasValue(Integer.toString(TEXT.length));
    }

    @Test
    void alreadyEncodedBodyPassesUnchanged() throws Exception {
        HttpResponse<byte[]> r = get("/gzipped", "br, gzip");
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(r.body()).isEqualTo(gzip(TEXT)); // the backend's bytes, not encoded twice
    }

    @Test
    void excludedAndIncludedContentTypes() throws Exception {
        configure("{compress: {excludedContentTypes: [\"application/json\"]}}");
        assertThat(get("/json", "gzip").headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(get("/text", "gzip").headers().firstValue("Content-Encoding")).hasValue("gzip");
        configure("{compress: {includedContentTypes: [\"application/json\"]}}");
        assertThat(get("/json", "gzip").headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(get("/text", "gzip").headers().firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void minResponseBodyBytesIsConfigurable() throws Exception {
        configure("{compress: {minResponseBodyBytes: " + (TEXT.length + 1) + "}}");
        assertThat(get("/text", "gzip").headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(get("/stream", "gzip").headers().firstValue("Content-Encoding")).isEmpty();
        configure("{compress: {minResponseBodyBytes: 4}}");
        assertThat(get("/small", "gzip").headers().firstValue("Content-Encoding")).hasValue("gzip");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gzip", "br", "zstd"})
    void streamedBodyIsCompressedAsItArrives(String encoding) throws Exception {
        HttpResponse<InputStream> r = route.client.send(HttpRequest.newBuilder(URI.create(route.proxy.url("web", "/slow")))
                .header("Accept-Encoding", encoding).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue(encoding);
        InputStream decoded = decoding(encoding, r.body());
        int half = TEXT.length / 2;
        // The first half must come through while the backend still holds back the second: nothing waits for the
        // whole body.
        byte[] first = CompletableFuture.supplyAsync(() -> {
            try {
                return decoded.readNBytes(half);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(10, TimeUnit.SECONDS);
        assertThat(first).isEqualTo(java.util.Arrays.copyOf(TEXT, half));
        secondHalf.countDown();
        assertThat(decoded.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(TEXT, half, TEXT.length));
    }

    /**
     * Decodes with a Netty decoder as the bytes arrive. (brotli4j's BrotliInputStream waits for more input than a
     * flushed Brotli stream needs, so it cannot show streaming.)
     */
    static final class NettyDecoding extends InputStream {
        private final InputStream raw;
        private final EmbeddedChannel decoder;
        private ByteBuf ready = Unpooled.EMPTY_BUFFER;

        NettyDecoding(InputStream raw, ChannelHandler decoder) {
            this.raw = raw;
            this.decoder = new EmbeddedChannel(decoder);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (!ready.isReadable()) {
                byte[] buf = new byte[8192];
                int n = raw.read(buf);
                if (n < 0) {
                    return -1;
                }
                decoder.writeInbound(Unpooled.wrappedBuffer(buf, 0, n));
                ByteBuf out = Unpooled.buffer();
                ByteBuf part;
                while ((part = decoder.readInbound()) != null) {
                    out.writeBytes(part);
                    part.release();
                }
                ready = out;
            }
            int n = Math.min(len, ready.readableBytes());
            ready.readBytes(b, off, n);
            return n;
        }
    }
}
