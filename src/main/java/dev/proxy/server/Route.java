package dev.proxy.server;

import java.util.function.Predicate;

/**
 * One compiled router on one entry point: a matcher, a priority (higher wins) and the handler.
 *
 * @param name     qualified router name ({@code ping@internal})
 * @param matcher  whether the request matches the router's rule
 * @param priority explicit priority, or the rule's length
 * @param handler  what serves matched requests
 * @param tls      served on TLS connections only (else on plain connections only)
 */
public record Route(String name, Predicate<Exchange> matcher, long priority, RouteHandler handler, boolean tls) {
}
