package dev.proxy.server;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The response side of one {@link Exchange}: runs the middlewares' head hooks and body filters, makes the
 * connection's keep-alive decision, writes head and body to the client and tells the connection when the response
 * is complete. Always used on the connection's event loop.
 *
 * <p>A streamed head is kept back until its first body write or flush: when the body's end follows at once (a small
 * response read in one burst), head and end leave as one complete message (one pass through the pipeline, one
 * buffer from the encoder, one write to the socket). A body filter may hold the head longer ({@link
 * ResponseBodyFilter#holdsHead()}): then it is not written before the filter lets body bytes through.
 */
final class ResponseWriter {

    private final ChannelHandlerContext ctx;
    private final Exchange exchange;
    private final HttpConnectionHandler connection;
    private final RequestBody requestBody;
    private final boolean clientKeepAlive;
    private final HttpVersion clientVersion;
    private List<Consumer<HttpResponse>> headHooks;
    private List<ResponseBodyFilter> bodyFilters;
    /** The head not written yet (see the class comment); null once written or for a complete response. */
    private HttpResponse unwrittenHead;
    /** Whether a body filter holds {@link #unwrittenHead} until it returns body bytes. */
    private boolean headHeld;
    private boolean responded;
    private boolean keepAlive;
    private boolean mustClose;
    private int status;
    private long bytesSent;

    ResponseWriter(ChannelHandlerContext ctx, Exchange exchange, HttpConnectionHandler connection,
                   RequestBody requestBody, boolean clientKeepAlive, HttpVersion clientVersion) {
        this.ctx = ctx;
        this.exchange = exchange;
        this.connection = connection;
        this.requestBody = requestBody;
        this.clientKeepAlive = clientKeepAlive;
        this.clientVersion = clientVersion;
    }

    void addHeadHook(Consumer<HttpResponse> hook) {
        if (headHooks == null) {
            headHooks = new ArrayList<>(2);
        }
        headHooks.add(hook);
    }

    void addBodyFilter(ResponseBodyFilter filter) {
        if (bodyFilters == null) {
            bodyFilters = new ArrayList<>(2);
        }
        bodyFilters.add(filter);
    }

    /** Writes a complete response and flushes it. */
    void respond(FullHttpResponse response) {
        if (bodyFilters != null) {
            // Filters work on streams: send the full response as a head and one last chunk.
            sendHead(new DefaultHttpResponse(response.protocolVersion(), response.status(), response.headers()));
            sendContent(new DefaultLastHttpContent(response.content()));
            ctx.flush();
            return;
        }
        sendHead(response);
        bytesSent += response.content().readableBytes();
        finish(ctx.writeAndFlush(response));
    }

    /** Starts the response; the keep-alive decision is made here and written into the head. */
    void sendHead(HttpResponse head) {
        if (responded) {
            throw new IllegalStateException("response already sent");
        }
        responded = true;
        status = head.status().code();
        if (headHooks != null) {
            for (Consumer<HttpResponse> hook : headHooks) {
                hook.accept(head);
            }
        }
        if (bodyFilters != null) {
            for (ResponseBodyFilter f : bodyFilters) {
                f.onHead(head, exchange);
                headHeld |= f.holdsHead();
            }
        }
        keepAlive = clientKeepAlive && !mustClose && connection.mayKeepAlive();
        if (!keepAlive) {
            head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (clientVersion.equals(HttpVersion.HTTP_1_0)) {
            head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (!requestBody.hasSink()) {
            requestBody.releasePending(); // answered without the body (404, 401, …): what arrived of it is dropped
        }
        if (!(head instanceof FullHttpResponse)) {
            unwrittenHead = head;
        }
    }

    /** Writes (without flushing) a body chunk; the last one completes the exchange once written. */
    void sendContent(HttpContent content) {
        if (bodyFilters != null) {
            for (ResponseBodyFilter filter : bodyFilters) {
                content = filter.onContent(content);
            }
        }
        boolean last = content instanceof LastHttpContent;
        if (unwrittenHead != null && headHeld && !last && !content.content().isReadable()) {
            content.release(); // still held back: nothing may be written before the head
            return;
        }
        bytesSent += content.content().readableBytes();
        if (unwrittenHead != null && last) {
            HttpResponse head = unwrittenHead;
            unwrittenHead = null;
            finish(ctx.write(new DefaultFullHttpResponse(head.protocolVersion(), head.status(), content.content(),
                    head.headers(), ((LastHttpContent) content).trailingHeaders())));
            return;
        }
        writeHead();
        if (last) {
            finish(ctx.write(content));
        } else {
            // Only the last write is awaited; a failed one fires exceptionCaught, which closes the connection.
            ctx.write(content, ctx.voidPromise());
        }
    }

    /** Sends what was written so far (a relay flushes once per read burst, not per chunk). */
    void flush() {
        if (!headHeld) {
            writeHead();
        }
        ctx.flush();
    }

    private void writeHead() {
        if (unwrittenHead != null) {
            ctx.write(unwrittenHead, ctx.voidPromise());
            unwrittenHead = null;
        }
    }

    /** Ends the response without further bytes after a failure mid-stream: the client connection is closed. */
    void abort() {
        abandonFilters();
        unwrittenHead = null; // the connection closes: a head without its body must not be sent
        keepAlive = false;
        responded = true;
        connection.responseComplete(exchange, false);
    }

    /** The connection closes after this response, whatever the client asked for. */
    void closeAfter() {
        mustClose = true;
        keepAlive = false;
    }

    /** The client is gone: filters free what they hold. */
    void abandonFilters() {
        if (bodyFilters != null) {
            bodyFilters.forEach(ResponseBodyFilter::abandon);
        }
    }

    private void finish(ChannelFuture written) {
        boolean ka = keepAlive;
        written.addListener(f -> connection.responseComplete(exchange, ka && f.isSuccess()));
    }

    boolean responded() {
        return responded;
    }

    int status() {
        return status;
    }

    long bytesSent() {
        return bytesSent;
    }
}
