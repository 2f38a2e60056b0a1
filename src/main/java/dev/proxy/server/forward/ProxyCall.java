package dev.proxy.server.forward;

import dev.proxy.server.Exchange;
import dev.proxy.server.ReadResumption;
import dev.proxy.server.RequestBodySink;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request relayed to one backend: streams the request body up and the response down, with backpressure in
 * both directions (a side that cannot write stops the other side's reads), so memory stays bounded whatever the
 * body sizes. Runs entirely on the client connection's event loop, which is also the backend connection's.
 */
final class ProxyCall implements RequestBodySink {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyCall.class);

    private final Exchange exchange;
    private final Target target;
    private final BackendPool pool;
    private final Duration responseHeaderTimeout;
    private final boolean replayable;
    private final ArrayDeque<HttpContent> queued = new ArrayDeque<>(2);
    private final ForwardOutcome outcome;
    private Channel backend;
    private BackendHandler backendHandler;
    private boolean reusedConnection;
    private boolean retried;
    private boolean requestDone;
    private boolean responseStarted;
    private boolean responseDone;
    private boolean backendKeepAlive = true;
    private boolean finished;
    /** Request bytes were written to the backend and not flushed yet (flushed at the end of the client's read). */
    private boolean unflushed;
    private ScheduledFuture<?> headerTimer;

    ProxyCall(Exchange exchange, Target target, BackendPool pool, Duration responseHeaderTimeout, ForwardOutcome outcome) {
        this.exchange = exchange;
        this.target = target;
        this.pool = pool;
        this.responseHeaderTimeout = responseHeaderTimeout;
        this.outcome = outcome;
        this.replayable = !exchange.hasRequestBody();
    }

    void start() {
        exchange.onAbort(this::clientGone);
        exchange.onClientWritable(() -> {
            if (backend != null) {
                ReadResumption.resume(backend);
            }
        });
        exchange.requestBodyTo(this);
        connect(false);
    }

    private void connect(boolean fresh) {
        pool.acquire(exchange.clientChannel().eventLoop(), target.origin(), fresh, (conn, error) -> {
            if (finished) {
                if (conn != null) {
                    conn.channel().close();
                }
                return;
            }
            if (error != null) {
                outcome.failed(target);
                fail(HttpResponseStatus.BAD_GATEWAY, "Bad Gateway", "cannot connect to " + target.url() + ": " + error.getMessage());
                return;
            }
            attach(conn.channel(), conn.reused());
        });
    }

    private void attach(Channel ch, boolean reused) {
        backend = ch;
        reusedConnection = reused;
        backendHandler = ch.pipeline().get(BackendHandler.class);
        backendHandler.attach(this);
        ch.config().setAutoRead(true);
        // Void promises: nothing waits on these writes; a failure closes the connection (BackendHandler).
        if (replayable) {
            // No body: the head goes as one complete message (one pass through the pipeline and the encoder); the
            // request's end, which carries nothing, is then only noted (see onRequestContent).
            HttpRequest head = exchange.request();
            ch.write(new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(), Unpooled.EMPTY_BUFFER,
                    head.headers(), EmptyHttpHeaders.INSTANCE), ch.voidPromise());
            queued.forEach(ReferenceCountUtil::release);
            queued.clear();
        } else {
            ch.write(exchange.request(), ch.voidPromise());
            HttpContent c;
            while ((c = queued.poll()) != null) {
                ch.write(c, ch.voidPromise());
            }
        }
        if (requestDone || !replayable) {
            ch.flush();
        } else {
            unflushed = true; // a bodyless request's end follows at once and flushes both (one flush per request)
        }
        if (!ch.isWritable()) {
            exchange.pauseClientReads();
        }
        if (requestDone) {
            startHeaderTimer();
        }
    }

    @Override
    public void onRequestContent(HttpContent content) {
        if (content instanceof LastHttpContent) {
            requestDone = true;
        }
        if (finished || responseDone) {
            content.release();
            return;
        }
        if (backend == null) {
            queued.add(content);
            if (queued.size() > 8) {
                exchange.pauseClientReads(); // resumed when the connection is up and writable
            }
            return;
        }
        if (replayable && content instanceof LastHttpContent) {
            // The end of a bodyless request, already sent with its head (attach): nothing to write, only to flush.
            content.release();
            backend.flush();
            unflushed = false;
            startHeaderTimer();
            return;
        }
        backend.write(content, backend.voidPromise());
        if (content instanceof LastHttpContent || !backend.isWritable()) {
            backend.flush();
            unflushed = false;
        } else {
            unflushed = true;
        }
        if (!backend.isWritable()) {
            exchange.pauseClientReads();
        }
        if (requestDone) {
            startHeaderTimer();
        }
    }

    /** The client's body went bad (malformed chunk, over a size limit): the backend must not see it complete. */
    @Override
    public void abort() {
        clientGone();
    }

    @Override
    public void flush() {
        if (backend != null && unflushed) {
            unflushed = false;
            backend.flush();
        }
    }

    /** The backend's read burst ended: send what was relayed to the client. */
    void flushToClient() {
        exchange.flushResponse();
    }

    void onBackendWritable() {
        exchange.resumeClientReads();
    }

    void onBackendMessage(Object msg) {
        if (finished) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpResponse response) {
            if (response.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL
                    && response.status().code() != 101) {
                return; // 1xx interim responses (103 Early Hints) are not relayed; Expect is answered by the proxy
            }
            cancelHeaderTimer();
            responseStarted = true;
            if (response.decoderResult().isFailure()) {
                backendKeepAlive = false;
                fail(HttpResponseStatus.BAD_GATEWAY, "Bad Gateway", "malformed response from " + target.url());
                return;
            }
            outcome.answered(target, response.status().code());
            if (response.status().code() == 101) {
                upgrade(response);
                return;
            }
            sendHead(response);
        }
        if (msg instanceof HttpContent content) {
            if (!responseStarted) {
                content.release();
                return;
            }
            if (content.decoderResult().isFailure()) {
                // Bad chunking after the head: the response is cut off (the client connection closes without the
                // last chunk), never completed, and the backend connection is not reused.
                content.release();
                backendKeepAlive = false;
                fail(HttpResponseStatus.BAD_GATEWAY, "Bad Gateway", "malformed response body from " + target.url());
                return;
            }
            boolean last = content instanceof LastHttpContent;
            exchange.sendResponseContent(content);
            if (last) {
                exchange.flushResponse();
            } else if (!exchange.clientWritable()) {
                // Stop reading first, then flush: the flush may drain the buffer at once and fire the writability
                // event (which turns reading back on) before it returns — stopping after it would stall for good.
                backend.config().setAutoRead(false);
                exchange.flushResponse();
            }
            if (last) {
                responseDone = true;
                release();
            }
        }
    }

    private void sendHead(HttpResponse response) {
        HttpHeaders h = response.headers();
        backendKeepAlive = HttpUtil.isKeepAlive(response);
        boolean chunked = HttpUtil.isTransferEncodingChunked(response);
        HopByHop.strip(h);
        if (target.origin().h2c()) {
            h.remove(HttpConversionUtil.ExtensionHeaderNames.STREAM_ID.text()); // noted by Netty's codec, not sent
        }
        boolean bodyless = exchange.isHead() || response.status().code() == 204 || response.status().code() == 304;
        if (!bodyless && !h.contains(HttpHeaderNames.CONTENT_LENGTH)) {
            if (exchange.clientVersion().equals(HttpVersion.HTTP_1_1)) {
                h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            } else {
                exchange.closeAfterResponse(); // HTTP/1.0 client: the body ends when the connection closes
            }
        } else if (chunked && bodyless) {
            h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        exchange.sendResponseHead(response);
    }

    /** 101 Switching Protocols (WebSocket): both connections stop speaking HTTP and relay raw bytes. */
    private void upgrade(HttpResponse response) {
        HttpHeaders h = response.headers();
        String upgrade = h.get(HttpHeaderNames.UPGRADE, "websocket");
        HopByHop.strip(h);
        h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
        h.set(HttpHeaderNames.UPGRADE, upgrade);
        exchange.sendResponseHead(response);
        exchange.flushResponse();
        Channel client = exchange.clientChannel();
        finished = true;
        backendHandler.detach();
        exchange.takeOverConnection();
        ChannelPipeline bp = backend.pipeline();
        bp.remove("backend");
        if (bp.get("idle") != null) {
            bp.remove("idle");
        }
        bp.addLast("relay", new Relay(client));
        client.pipeline().addLast("relay", new Relay(backend));
        bp.remove("codec");
        client.config().setAutoRead(true);
        backend.config().setAutoRead(true);
        client.read();
    }

    /** The backend connection closed or failed. */
    void onBackendClosed(Throwable cause) {
        if (finished || responseDone) {
            return;
        }
        cancelHeaderTimer();
        if (!responseStarted) {
            if (reusedConnection && replayable && !retried) {
                // A pooled connection the backend closed while idle: retry once on a new connection.
                retried = true;
                backend = null;
                connect(true);
                return;
            }
            outcome.failed(target);
            fail(HttpResponseStatus.BAD_GATEWAY, "Bad Gateway", "backend " + target.url() + " closed the connection"
                    + (cause == null ? "" : ": " + cause.getMessage()));
            return;
        }
        // Mid-response: nothing sensible can be sent any more; the client connection is closed.
        LOG.debug("backend {} closed mid-response", target.url());
        finished = true;
        exchange.abortResponse();
    }

    private void clientGone() {
        if (finished) {
            return;
        }
        finished = true;
        cancelHeaderTimer();
        queued.forEach(ReferenceCountUtil::release);
        queued.clear();
        if (backend != null) {
            backendHandler.detach();
            backend.close();
        }
    }

    private void fail(HttpResponseStatus status, String body, String reason) {
        LOG.debug("{} {}: {}", exchange.method(), exchange.path(), reason);
        finished = true;
        queued.forEach(ReferenceCountUtil::release);
        queued.clear();
        if (backend != null) {
            backendHandler.detach();
            backend.close();
        }
        if (!exchange.responded()) {
            exchange.respond(status, body);
        } else {
            exchange.abortResponse();
        }
    }

    /** The response is complete: return the connection to the pool if both directions ended cleanly. */
    private void release() {
        finished = true;
        backendHandler.detach();
        if (backendKeepAlive && requestDone) {
            pool.release(backend, target.origin());
        } else {
            backend.close();
        }
    }

    private void startHeaderTimer() {
        if (responseHeaderTimeout.isZero() || headerTimer != null || responseStarted || backend == null) {
            return;
        }
        headerTimer = backend.eventLoop().schedule(() -> {
            if (!responseStarted && !finished) {
                outcome.failed(target);
                fail(HttpResponseStatus.GATEWAY_TIMEOUT, "Gateway Timeout",
                        "no response from " + target.url() + " within " + responseHeaderTimeout);
            }
        }, responseHeaderTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void cancelHeaderTimer() {
        if (headerTimer != null) {
            headerTimer.cancel(false);
        }
    }

}
