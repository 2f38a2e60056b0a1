package dev.proxy.middleware;

import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;

/** A middleware that acts on the request synchronously and then either answers it or passes it on. */
interface RequestStep extends HttpMiddleware {

    /** Acts on the request; returns false when it has answered it (the rest of the chain is skipped). */
    boolean apply(Exchange exchange);

    @Override
    default RouteHandler wrap(RouteHandler next) {
        return HttpMiddleware.around(next, exchange -> {
            if (apply(exchange)) {
                next.handle(exchange);
            }
        });
    }
}
