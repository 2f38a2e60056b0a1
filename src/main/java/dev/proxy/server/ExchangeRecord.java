package dev.proxy.server;

import io.micronaut.core.annotation.Nullable;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.InetAddress;

/**
 * What happened to one request, for access logs and metrics.
 *
 * @param entryPoint    entry point name
 * @param router        qualified router name, null when no router matched (404)
 * @param service       qualified service name (or internal service), null when none
 * @param method        request method
 * @param uri           the request target as the client sent it (before any rewriting middleware)
 * @param protocol      {@code HTTP/1.1}, {@code HTTP/1.0}, {@code HTTP/2.0}
 * @param host          the Host header as sent
 * @param headers       the request headers (as forwarded: hop-by-hop removed, forwarded headers set)
 * @param client        client address
 * @param status        response status, 0 when no response was sent (client gone, aborted)
 * @param bytesSent     response body bytes written
 * @param startNanos    System.nanoTime when the request head arrived
 * @param durationNanos until the response was complete (or the exchange ended)
 * @param internal      served by an internal service (ping, api): left out unless {@code addInternals}
 * @param serviceUrl    the backend server chosen, null when none was (internal service, 404, no server up)
 * @param tls           the request came over TLS
 */
public record ExchangeRecord(String entryPoint, @Nullable String router, @Nullable String service, String method,
                             String uri, String protocol, String host, HttpHeaders headers,
                             InetAddress client, int status, long bytesSent, long startNanos, long durationNanos,
                             boolean internal, @Nullable String serviceUrl, boolean tls) {
}
