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
}
