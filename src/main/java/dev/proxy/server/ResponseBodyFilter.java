package dev.proxy.server;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Transforms a response on its way to the client (compression, …). Installed by a middleware with
 * {@link Exchange#addResponseBodyFilter}; sees the head once, then every body chunk in order. Runs on the event loop.
 */
public interface ResponseBodyFilter {

    /** May change status and headers (e.g. set Content-Encoding and drop Content-Length). */
    void onHead(HttpResponse head, Exchange exchange);

    /**
     * Transforms one chunk, taking ownership of it; returns what to send instead (possibly an empty chunk). For a
     * {@link io.netty.handler.codec.http.LastHttpContent} it must return a {@code LastHttpContent}.
     */
    HttpContent onContent(HttpContent content);

    /**
     * Asked right after {@link #onHead}: true to keep the head from being written until this filter returns body bytes
     * (or the last chunk), so that it can still change the head after seeing the start of the body (compress decides
     * on bodies of unknown length this way). While held, empty chunks it returns are not written.
     */
    default boolean holdsHead() {
        return false;
    }

    /** The response ends without its last chunk (client gone, backend failed): free what the filter holds. */
    default void abandon() {
    }
}
