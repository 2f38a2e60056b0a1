package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.DataPlane;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data plane on each network I/O mechanism (io_uring is the default where the kernel offers it, epoll the
 * fallback where a seccomp profile or the kernel refuses it, NIO elsewhere): the same forwarding over real sockets.
 */
class TransportTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io_uring", "epoll", "nio"})
    void forwardsStreamedBodiesBothWaysOnEachTransport(String kind) throws Exception {
        assumeTrue(!kind.equals("io_uring") || IoUring.isAvailable(), "io_uring is not available on this machine");
        assumeTrue(!kind.equals("epoll") || Epoll.isAvailable(), "epoll is not available on this machine");
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            byte[] in;
            try (InputStream is = ex.getRequestBody()) {
                in = is.readAllBytes();
            }
            byte[] out = new byte[in.length * 2]; // the body twice: a response larger than the request
            System.arraycopy(in, 0, out, 0, in.length);
            System.arraycopy(in, 0, out, in.length, in.length);
            ex.sendResponseHeaders(200, out.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        });
        backend.start();
        try (DataPlane proxy = DataPlane.onTransport(kind, "--entryPoints.web.address=127.0.0.1:0")) {
            assertThat(proxy.transport.kind()).isEqualTo(kind);
            proxy.apply("""
                    http:
                      routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                      services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                    """.formatted(backend.getAddress().getPort()));
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            byte[] body = new byte[3 * 1024 * 1024 + 7];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) (i * 31 + (i >> 11));
            }
            for (int round = 0; round < 3; round++) { // keep-alive on both sides: the same connections again
                HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(proxy.url("web", "/up")))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).hasSize(body.length * 2);
                assertThat(Arrays.equals(r.body(), 0, body.length, body, 0, body.length)).isTrue();
                assertThat(Arrays.equals(r.body(), body.length, r.body().length, body, 0, body.length)).isTrue();
            }
            HttpResponse<String> get = client.send(HttpRequest.newBuilder(URI.create(proxy.url("web", "/"))).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.US_ASCII));
            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.body()).isEmpty();
        } finally {
            backend.stop(0);
        }
    }

    @Test
    void anUnknownTransportNameFallsBackToAuto() {
        assertThat(NettyTransport.choose("bogus")).isEqualTo(NettyTransport.choose("auto"));
        assertThat(NettyTransport.choose(" NIO ")).isEqualTo(NettyTransport.Kind.NIO);
        assertThat(NettyTransport.choose("auto")).isEqualTo(IoUring.isAvailable() ? NettyTransport.Kind.IO_URING
                : Epoll.isAvailable() ? NettyTransport.Kind.EPOLL : NettyTransport.Kind.NIO);
    }
}
