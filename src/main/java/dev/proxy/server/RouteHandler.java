package dev.proxy.server;

/**
 * What a matched router hands a request to: an internal service ({@code ping@internal}) or, with the routing core,
 * a middleware chain in front of a load-balanced service. Called on the connection's event loop; must not block.
 */
public interface RouteHandler {

    /** Handles the request; must eventually answer through {@link Exchange#respond}. */
    void handle(Exchange exchange);

    /** Qualified name for logs and the API, e.g. {@code ping@internal}. */
    String name();
}
