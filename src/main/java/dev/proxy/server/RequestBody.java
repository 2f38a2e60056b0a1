package dev.proxy.server;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * The request body of one exchange on its way from the client connection to whoever takes it (a
 * {@link RequestBodySink}): chunks that arrive before a sink is given wait here, chunks that arrive after the
 * response was sent without one are dropped.
 */
final class RequestBody {

    private RequestBodySink sink;
    private ArrayDeque<HttpContent> pending;
    private boolean complete;
    private long limit = Long.MAX_VALUE;
    private long received;

    /** Sends the body (what has arrived and what will) to the sink. */
    void to(RequestBodySink sink) {
        this.sink = sink;
        if (pending != null) {
            HttpContent c;
            while ((c = pending.poll()) != null) {
                sink.onRequestContent(c);
            }
        }
    }

    /** A chunk from the client; {@code responded}: the response went out already (nobody will take the body). */
    void arrived(HttpContent content, boolean responded) {
        if (content instanceof LastHttpContent) {
            complete = true;
        }
        if (sink != null) {
            sink.onRequestContent(content);
        } else if (responded) {
            content.release();
        } else {
            if (pending == null) {
                pending = new ArrayDeque<>(4);
            }
            pending.add(content);
        }
    }

    /** Lowers the body size limit; returns false when what arrived so far already exceeds it. */
    boolean limit(long max) {
        limit = Math.min(limit, max);
        return received <= limit;
    }

    /** Counts a chunk against the limit; false when it takes the body over it. */
    boolean withinLimit(HttpContent content) {
        received += content.content().readableBytes();
        return received <= limit;
    }

    /**
     * The body went bad (malformed chunk, over the limit): whoever took it must not complete the request upstream,
     * and nothing more is passed on.
     */
    void abort() {
        complete = true;
        releasePending();
        RequestBodySink s = sink;
        sink = null;
        if (s != null) {
            s.abort();
        }
    }

    boolean complete() {
        return complete;
    }

    boolean hasSink() {
        return sink != null;
    }

    void flush() {
        if (sink != null) {
            sink.flush();
        }
    }

    /** Drops the chunks waiting for a sink. */
    void releasePending() {
        if (pending != null) {
            pending.forEach(ReferenceCountUtil::release);
            pending.clear();
        }
    }
}
