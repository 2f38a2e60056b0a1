package dev.proxy.server;

import io.netty.handler.codec.http.HttpContent;

/** Receives the request body of an exchange, chunk by chunk, taking ownership of each chunk. */
public interface RequestBodySink {

    void onRequestContent(HttpContent content);

    /** The client's current read burst ended: flush what was written for it. */
    default void flush() {
    }

    /**
     * The body went bad before its end (a malformed chunk, or over a size limit): the request must not complete
     * upstream (a backend connection carrying it is closed); no more chunks follow.
     */
    default void abort() {
    }
}
