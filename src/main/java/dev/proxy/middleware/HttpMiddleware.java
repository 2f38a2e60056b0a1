package dev.proxy.middleware;

import dev.proxy.server.RouteHandler;

/** A compiled middleware: wraps the next handler of a router's chain. Built once per configuration. */
public interface HttpMiddleware {

    RouteHandler wrap(RouteHandler next);
}
