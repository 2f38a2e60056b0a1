package dev.proxy.middleware;

import dev.proxy.config.dynamic.Buffering;
import dev.proxy.server.Exchange;

/** {@code buffering.maxRequestBodyBytes}: a request body limit for the routers that use it (see {@link Buffering}). */
final class BufferingMiddleware implements RequestStep {

    private final long maxRequestBodyBytes;

    BufferingMiddleware(Buffering config) {
        this.maxRequestBodyBytes = config.maxRequestBodyBytes();
    }

    @Override
    public boolean apply(Exchange exchange) {
        return maxRequestBodyBytes == 0 || exchange.limitRequestBody(maxRequestBodyBytes);
    }
}
