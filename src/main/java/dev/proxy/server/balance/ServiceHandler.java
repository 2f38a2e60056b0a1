package dev.proxy.server.balance;

import dev.proxy.server.RouteHandler;

/** A service in the data plane: a route target that can tell whether it has any server to send to. */
public interface ServiceHandler extends RouteHandler {

    /** Whether at least one server is up (a weighted parent skips children without one). */
    boolean available();

    /** Stops background work (health checks) when a new configuration no longer uses this service. */
    default void close() {
    }
}
