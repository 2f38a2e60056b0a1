package dev.proxy.server;

/**
 * A service the proxy serves itself ({@code api@internal}, {@code dashboard@internal}, {@code prometheus@internal}).
 * Beans implementing it exist only when their feature is configured, and are created on the first request that
 * reaches them, not at start-up.
 */
public interface InternalService extends RouteHandler {
}
