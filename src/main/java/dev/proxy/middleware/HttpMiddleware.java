package dev.proxy.middleware;

import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import java.util.function.Consumer;

/** A compiled middleware: wraps the next handler of a router's chain. Built once per configuration. */
public interface HttpMiddleware {

    RouteHandler wrap(RouteHandler next);

    /** A handler that runs {@code handle} (which calls {@code next} when it lets the request on) under next's name. */
    static RouteHandler around(RouteHandler next, Consumer<Exchange> handle) {
        return new RouteHandler() {
            @Override
            public void handle(Exchange exchange) {
                handle.accept(exchange);
            }

            @Override
            public String name() {
                return next.name();
            }
        };
    }
}
