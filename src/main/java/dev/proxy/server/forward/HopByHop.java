package dev.proxy.server.forward;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and must not be forwarded. Every header
 * named in {@code Connection} is one too. Stripping runs first, before the proxy sets its own headers, so a client
 * cannot use {@code Connection: X-Forwarded-For} to remove what the proxy adds.
 */
final class HopByHop {

    private static final List<CharSequence> FIXED = List.of(HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE,
            HttpHeaderNames.PROXY_CONNECTION, HttpHeaderNames.PROXY_AUTHENTICATE, HttpHeaderNames.PROXY_AUTHORIZATION,
            HttpHeaderNames.TE, HttpHeaderNames.TRAILER, HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.UPGRADE);

    private HopByHop() {
    }

    /** Removes hop-by-hop headers, including those listed in Connection. */
    static void strip(HttpHeaders headers) {
        if (headers.contains(HttpHeaderNames.CONNECTION)) {
            for (String connection : headers.getAll(HttpHeaderNames.CONNECTION)) {
                for (String token : connection.split(",")) {
                    String name = token.trim();
                    if (!name.isEmpty()) {
                        headers.remove(name);
                    }
                }
            }
        }
        for (CharSequence name : FIXED) {
            headers.remove(name);
        }
    }

    /** Whether a {@code TE} header lists {@code trailers}. */
    static boolean acceptsTrailers(HttpHeaders headers) {
        for (String te : headers.getAll(HttpHeaderNames.TE)) {
            for (String token : te.split(",")) {
                String t = token.trim();
                int semicolon = t.indexOf(';');
                if ((semicolon < 0 ? t : t.substring(0, semicolon).trim()).equalsIgnoreCase("trailers")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the request asks to switch to WebSocket ({@code Connection: upgrade} and {@code Upgrade: websocket}). */
    static boolean isWebSocketUpgrade(HttpHeaders headers) {
        return headers.containsValue(HttpHeaderNames.CONNECTION, "upgrade", true)
                && headers.contains(HttpHeaderNames.UPGRADE, "websocket", true);
    }
}
