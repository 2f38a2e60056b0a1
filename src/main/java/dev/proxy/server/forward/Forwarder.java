package dev.proxy.server.forward;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import jakarta.inject.Singleton;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Sends an exchange to a backend server: refuses a request that looped back to this proxy (400, see
 * {@link LoopGuard}), rewrites the request head for the hop (hop-by-hop headers out first, then the proxy's
 * forwarded headers and loop mark, Host, target path) and relays the exchange through a pooled connection.
 */
@Singleton
public class Forwarder {

    private final BackendPool pool;
    private final Duration responseHeaderTimeout;
    private final AsciiString serverName;
    private final LoopGuard loopGuard = new LoopGuard();

    public Forwarder(BackendPool pool, InstallConfig config) {
        this.pool = pool;
        this.responseHeaderTimeout = config.serversTransport().forwardingTimeouts().responseHeaderTimeout();
        this.serverName = AsciiString.cached(hostName());
    }

    /** The TLS profile of {@code service}'s targets (see {@link BackendTls}); empty for the default TLS client. */
    public String tlsProfile(String qualifiedService) {
        return pool.tlsProfile(qualifiedService);
    }

    /**
     * @param trustForwarded whether the client's peer address may supply X-Forwarded-* headers
     * @param outcome        told whether the server answered (passive health)
     */
    public void forward(Exchange exchange, Target target, Predicate<Exchange> trustForwarded, ForwardOutcome outcome) {
        HttpRequest request = exchange.request();
        HttpHeaders h = request.headers();
        if (loopGuard.seen(h)) {
            // This process forwarded the request already: the service points back at the proxy. Answer instead of
            // sending it round again (see LoopGuard); checked before anything of the head is changed.
            exchange.respond(HttpResponseStatus.BAD_REQUEST, "forwarding loop: the request came back to this proxy");
            return;
        }
        boolean webSocket = HopByHop.isWebSocketUpgrade(h);
        boolean chunked = HttpUtil.isTransferEncodingChunked(request);
        // "TE: trailers" says the client takes trailers (gRPC needs it end to end): kept, as Go's proxy does.
        boolean trailers = HopByHop.acceptsTrailers(h);
        HopByHop.strip(h);
        if (trailers) {
            h.set(HttpHeaderNames.TE, HttpHeaderValues.TRAILERS);
        }
        if (chunked) {
            h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        if (webSocket) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE);
            h.set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        }
        String proto = exchange.isTls()
                ? (webSocket ? "wss" : "https") : (webSocket ? "ws" : "http");
        ForwardedHeaders.apply(h, trustForwarded.test(exchange), exchange.clientIp(), proto,
                exchange.originalHost(), exchange.localAddress().getPort(), serverName);
        for (var header : exchange.upstreamHeaders()) {
            if (header.getValue().isEmpty()) {
                h.remove(header.getKey());
            } else {
                h.set(header.getKey(), header.getValue());
            }
        }
        loopGuard.mark(h);
        if (!target.passHostHeader() || exchange.originalHost().isEmpty()) {
            h.set(HttpHeaderNames.HOST, target.origin().authority());
        }
        if (!target.basePath().isEmpty() || !request.uri().startsWith("/")) {
            // A server URL with a path prefix, or an absolute-form request target: rewrite to origin form.
            String query = exchange.rawQuery();
            request.setUri(target.basePath() + exchange.path() + (query.isEmpty() ? "" : "?" + query));
        }
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
        new ProxyCall(exchange, target, pool, responseHeaderTimeout, outcome).start();
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return Files.readString(Path.of("/etc/hostname")).trim();
        } catch (Exception e) {
            return "proxy";
        }
    }
}
