package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code buffering}: Traefik's name for the middleware that bounds request bodies. Only
 * {@code maxRequestBodyBytes} is supported, and the body is still streamed, not buffered: a declared
 * Content-Length over the limit gets 413 before any backend is contacted; a chunked body is cut off where it crosses
 * the limit (the backend request is aborted, the client gets 413 if its response has not started).
 *
 * @param maxRequestBodyBytes the largest request body, in bytes; 0 (the default) is no limit
 */
public record Buffering(@Nullable Long maxRequestBodyBytes) {

    public Buffering {
        maxRequestBodyBytes = maxRequestBodyBytes == null ? 0L : maxRequestBodyBytes;
        if (maxRequestBodyBytes < 0) {
            throw new InvalidValueException("maxRequestBodyBytes", maxRequestBodyBytes
                    + ": must be 0 (no limit) or a number of bytes");
        }
    }
}
