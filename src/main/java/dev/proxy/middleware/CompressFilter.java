package dev.proxy.middleware;

import dev.proxy.server.Exchange;
import dev.proxy.server.ResponseBodyFilter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Compresses one response as it streams: each chunk is encoded and flushed as it arrives (nothing waits for the whole
 * body). With a Content-Length the size decides at once; a body of unknown length is held back until
 * {@code minResponseBodyBytes} have arrived — if it ends first it is sent as it is — which is the only buffering.
 */
final class CompressFilter implements ResponseBodyFilter {

    private enum State { PASS, HOLD, COMPRESS, DONE }

    private final CompressMiddleware policy;
    private final String encoding;
    private HttpResponse head;
    private State state = State.PASS;
    private ByteBuf held;
    private EmbeddedChannel encoder;

    CompressFilter(CompressMiddleware policy, String encoding) {
        this.policy = policy;
        this.encoding = encoding;
    }

    @Override
    public void onHead(HttpResponse head, Exchange exchange) {
        this.head = head;
        if (!policy.eligible(head)) {
            return;
        }
        CompressMiddleware.addVary(head.headers());
        long length = HttpUtil.getContentLength(head, -1L);
        if (length >= 0) {
            if (length >= policy.minBytes) {
                start();
            }
        } else {
            state = State.HOLD;
        }
    }

    @Override
    public boolean holdsHead() {
        return state == State.HOLD;
    }

    @Override
    public HttpContent onContent(HttpContent content) {
        return switch (state) {
            case PASS, DONE -> content;
            case COMPRESS -> encode(content);
            case HOLD -> hold(content);
        };
    }

    private HttpContent hold(HttpContent content) {
        if (held == null) {
            held = ByteBufAllocator.DEFAULT.buffer(Math.min(policy.minBytes, 8192));
        }
        held.writeBytes(content.content());
        boolean last = content instanceof LastHttpContent;
        HttpHeaders trailers = last ? ((LastHttpContent) content).trailingHeaders().copy() : null;
        content.release();
        ByteBuf body = held;
        if (body.readableBytes() >= policy.minBytes) {
            held = null;
            start();
            return encode(new DefaultHttpContent(body), trailers);
        }
        if (last) {
            held = null;
            state = State.DONE; // ended below the threshold: sent as it is
            DefaultLastHttpContent out = new DefaultLastHttpContent(body);
            out.trailingHeaders().set(trailers);
            return out;
        }
        return new DefaultHttpContent(Unpooled.EMPTY_BUFFER);
    }

    private void start() {
        state = State.COMPRESS;
        HttpHeaders h = head.headers();
        h.remove(HttpHeaderNames.CONTENT_LENGTH);
        h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        h.set(HttpHeaderNames.CONTENT_ENCODING, encoding);
        String etag = h.get(HttpHeaderNames.ETAG);
        if (etag != null && etag.startsWith("\"")) {
            // The compressed bytes differ from what the strong validator names (RFC 9110 §8.8.1).
            h.set(HttpHeaderNames.ETAG, "W/" + etag);
        }
        encoder = new EmbeddedChannel(CompressMiddleware.encoder(encoding).get());
    }

    private HttpContent encode(HttpContent content) {
        HttpHeaders trailers = content instanceof LastHttpContent l ? l.trailingHeaders().copy() : null;
        return encode(content, trailers);
    }

    /** Encodes the chunk's bytes (taking ownership); {@code trailers} non-null marks the last chunk. */
    private HttpContent encode(HttpContent content, HttpHeaders trailers) {
        ByteBuf in = content.content().retain();
        content.release();
        if (in.isReadable()) {
            encoder.writeOutbound(in); // writes and flushes: the encoder emits what it has so far
        } else {
            in.release();
        }
        if (trailers == null) {
            return new DefaultHttpContent(drain());
        }
        encoder.finish(); // closing writes the end of the stream (gzip trailer, brotli last block)
        state = State.DONE;
        DefaultLastHttpContent last = new DefaultLastHttpContent(drain());
        last.trailingHeaders().set(trailers);
        encoder = null;
        return last;
    }

    private ByteBuf drain() {
        CompositeByteBuf out = ByteBufAllocator.DEFAULT.compositeBuffer();
        ByteBuf b;
        while ((b = encoder.readOutbound()) != null) {
            if (b.isReadable()) {
                out.addComponent(true, b);
            } else {
                b.release();
            }
        }
        return out;
    }

    @Override
    public void abandon() {
        if (held != null) {
            held.release();
            held = null;
        }
        if (encoder != null) {
            encoder.finishAndReleaseAll(); // frees the native Brotli/Zstandard state now, not at some GC
            encoder = null;
        }
        state = State.DONE;
    }
}
