package dev.proxy.server.forward;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.server.EmbeddedClient;
import dev.proxy.server.Exchange;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Response backpressure of {@link ProxyCall}, on embedded channels: a client that cannot take more stops the reads
 * from the backend, and a client that can take more again restarts them — also when the flush that follows a full
 * buffer drains it at once, which fires the writability event inside the flush. Reading must be stopped before that
 * flush: stopped after it, the event (which restarts reading) has already passed and the download stalls for good.
 */
class ProxyCallBackpressureTest {

    /** Unwritable above 16 pending bytes, writable again below 8: one 64-byte chunk fills the client. */
    private static final WriteBufferWaterMark SMALL = new WriteBufferWaterMark(8, 16);
    private static final String URL = "http://127.0.0.1:9";

    private final EmbeddedClient client = new EmbeddedClient(SMALL);
    private final EmbeddedChannel backend = new EmbeddedChannel();
    private final List<Channel> released = new ArrayList<>();
    private final BackendPool pool = new BackendPool(null, new InstallConfig(Map.of(), null, null, null, null)) {
        @Override
        void acquire(EventLoop loop, Origin origin, boolean fresh, BiConsumer<BackendConnection, Throwable> callback) {
            callback.accept(BackendConnection.of(backend, false), null);
        }

        @Override
        void release(Channel ch, Origin origin) {
            released.add(ch);
        }
    };

    @BeforeEach
    void startCall() {
        Target target = Target.of(URL, true);
        backend.pipeline().addLast("backend", new BackendHandler(pool, target.origin()));
        Exchange exchange = client.exchange(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/down"));
        new ProxyCall(exchange, target, pool, Duration.ZERO, ForwardOutcome.IGNORED).start();
        assertThat((Object) backend.readOutbound()).as("the request sent to the backend").isNotNull();
        backend.writeInbound(chunkedHead());
        assertThat(backend.config().isAutoRead()).isTrue();
    }

    @AfterEach
    void close() {
        client.channel().finishAndReleaseAll();
        backend.finishAndReleaseAll();
    }

    @Test
    void aClientThatTakesEverythingAtOnceKeepsTheBackendRead() {
        backend.writeInbound(chunk("a".repeat(64)));

        // The chunk filled the client's buffer, and the flush that followed emptied it: nothing to wait for.
        assertThat(client.channel().isWritable()).isTrue();
        assertThat(backend.config().isAutoRead()).as("backend read while the client can take more").isTrue();

        backend.writeInbound(chunk("b".repeat(64)), last("c"));
        assertThat(bodyReceived()).isEqualTo("a".repeat(64) + "b".repeat(64) + "c");
        assertThat(released).containsExactly(backend);
    }

    @Test
    void aFullClientStopsTheBackendReadsUntilItDrains() {
        client.stopReading();
        backend.writeInbound(chunk("a".repeat(64)));

        assertThat(client.channel().isWritable()).isFalse();
        assertThat(backend.config().isAutoRead()).as("backend read while the client is full").isFalse();

        client.resumeReading();
        assertThat(client.channel().isWritable()).isTrue();
        assertThat(backend.config().isAutoRead()).as("backend read once the client drained").isTrue();

        backend.writeInbound(last("b"));
        assertThat(bodyReceived()).isEqualTo("a".repeat(64) + "b");
        assertThat(released).containsExactly(backend);
    }

    private static HttpResponse chunkedHead() {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        return head;
    }

    private static HttpContent chunk(String text) {
        return new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    private static LastHttpContent last(String text) {
        return new DefaultLastHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    /** The body the client was sent so far, after checking that what precedes it is the response head. */
    private String bodyReceived() {
        StringBuilder body = new StringBuilder();
        Object msg;
        while ((msg = client.channel().readOutbound()) != null) {
            if (msg instanceof HttpContent content) {
                body.append(content.content().toString(StandardCharsets.US_ASCII));
            } else {
                assertThat(msg).isInstanceOf(HttpResponse.class);
            }
            ReferenceCountUtil.release(msg);
        }
        return body.toString();
    }
}
