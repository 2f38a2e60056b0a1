package dev.proxy.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the HTTP/1.1 requests of one client connection, one at a time and in order: routes each request through
 * the current snapshot and lets the handler answer. Pipelined requests wait (reading pauses) until the response
 * before them is complete, so responses never interleave.
 * <p>
 * On an HTTP/2 connection the instance in the connection's pipeline only keeps the connection's state (idle time,
 * TLS, drain); each stream gets its own instance ({@link #newStream()}) behind Netty's frame-to-HTTP/1 codec, which
 * serves that stream's single request exactly like an HTTP/1.1 request on a connection of its own.
 */
final class HttpConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnectionHandler.class);

    private final EntryPoint entryPoint;
    private final RoutingService routing;
    /** The connection's handler when this one serves an HTTP/2 stream; null on a connection. */
    private final HttpConnectionHandler connectionOfStream;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** The open streams once the connection speaks HTTP/2 (null before and on HTTP/1); read by the timeout sweep. */
    private volatile Set<HttpConnectionHandler> streams;
    private Http2FrameCodec http2;
    private ChannelHandlerContext ctx;
    private Exchange current;
    private boolean responseComplete;
    private boolean closeAfterResponse;
    private boolean upgraded;
    /** Set once the connection is to close (refused request, response with Connection: close): nothing more is read. */
    private boolean discardRest;
    /** When the connection last became idle (System.nanoTime), 0 while a request is in progress. */
    private volatile long idleSince;
    /** When the first byte of the request being read arrived, 0 when no request is being read. */
    private volatile long readingSince;
    /** When the head of the request being answered arrived, 0 when no response is pending. */
    private volatile long respondingSince;
    private InetAddress clientAddress;
    private String clientIp;
    /** Set once the TLS handshake is done; null on a plain connection. */
    private ConnectionTls tls;

    HttpConnectionHandler(EntryPoint entryPoint, RoutingService routing) {
        this.entryPoint = entryPoint;
        this.routing = routing;
        this.connectionOfStream = null;
    }

    private HttpConnectionHandler(HttpConnectionHandler connection) {
        this.entryPoint = connection.entryPoint;
        this.routing = connection.routing;
        this.connectionOfStream = connection;
        this.tls = connection.tls;
    }

    /** Called by the protocol negotiation when the connection speaks HTTP/2; {@code codec} is its frame codec. */
    void http2Established(Http2FrameCodec codec) {
        this.http2 = codec;
        this.streams = ConcurrentHashMap.newKeySet();
    }

    /** The handler for one new HTTP/2 stream of this connection. */
    HttpConnectionHandler newStream() {
        return new HttpConnectionHandler(this);
    }

    /** Whether this handler serves an HTTP/2 stream (its requests are HTTP/2 requests seen as HTTP/1.1). */
    boolean isHttp2Stream() {
        return connectionOfStream != null;
    }

    private void streamOpened(HttpConnectionHandler stream) {
        streams.add(stream);
        idleSince = 0;
    }

    private void streamClosed(HttpConnectionHandler stream) {
        streams.remove(stream);
        if (streams.isEmpty()) {
            idleSince = System.nanoTime();
        }
    }

    String entryPointName() {
        return entryPoint.name();
    }

    EntryPoint entryPoint() {
        return entryPoint;
    }

    /** Called by the protocol negotiation once the TLS handshake is done, before any request. */
    void tlsEstablished(ConnectionTls negotiated) {
        this.tls = negotiated;
    }

    /** What the TLS handshake negotiated; null on a plain connection. */
    ConnectionTls tls() {
        return tls;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        clientAddress(); // known while the channel is open: records of aborted exchanges need it later
        if (connectionOfStream != null) {
            connectionOfStream.streamOpened(this); // a stream is never idle: its connection is, between streams
        } else {
            idleSince = System.nanoTime();
            entryPoint.connectionOpened(this);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Exchange ex = current;
        current = null;
        if (ex != null && !responseComplete) {
            entryPoint.requestFinished();
            ex.aborted();
            entryPoint.exchangeCompleted(ex);
        }
        waiting.forEach(ReferenceCountUtil::release);
        waiting.clear();
        if (connectionOfStream != null) {
            connectionOfStream.streamClosed(this);
        } else {
            entryPoint.connectionClosed(this);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (current != null) {
            current.flushRequestBody();
        }
        ctx.fireChannelReadComplete();
    }

    InetAddress clientAddress() {
        if (clientAddress == null) {
            clientAddress = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
        }
        return clientAddress;
    }

    String clientIp() {
        if (clientIp == null) {
            clientIp = clientAddress().getHostAddress();
        }
        return clientIp;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (current != null) {
            current.clientWritabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (connectionOfStream != null && msg instanceof FullHttpRequest full) {
            // An HTTP/2 request in one HEADERS frame: head and (empty) body go their own ways, as from HTTP/1.1.
            // Only on a stream: the HTTP/1 decoder's only full request is its invalid one ("/bad-request", with a
            // failed decoder result), which must reach rejectMalformed as it is.
            DefaultHttpRequest head = new DefaultHttpRequest(full.protocolVersion(), full.method(), full.uri(),
                    full.headers());
            head.setDecoderResult(full.decoderResult());
            channelRead(ctx, head);
            channelRead(ctx, new DefaultLastHttpContent(full.content(), full.trailingHeaders()));
            return;
        }
        if (discardRest && current == null) {
            // The parser may have decoded more messages from the same read (pipelined requests after a refused one,
            // or after a response that closed the connection): none of them is served.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (current != null && current.requestComplete()) {
            // A pipelined request arrived before the previous response ended: keep it for later, stop reading.
            waiting.add(msg);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        if (msg instanceof HttpRequest request) {
            startRequest(ctx, request);
        }
        if (msg instanceof HttpContent content) {
            if (content instanceof LastHttpContent) {
                readingSince = 0;
            }
            Exchange ex = current;
            if (ex == null || responseComplete) {
                // The rest of a body whose response is already complete: read and dropped.
                content.release();
                if (content instanceof LastHttpContent && ex != null) {
                    ex.requestContent(LastHttpContent.EMPTY_LAST_CONTENT);
                    finishExchange();
                }
            } else {
                ex.requestContent(content);
            }
        } else if (!(msg instanceof HttpRequest)) {
            ReferenceCountUtil.release(msg);
        }
    }

    private void startRequest(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            rejectMalformed(ctx, request);
            return;
        }
        if (connectionOfStream != null) {
            // Netty's codec notes the stream id and scheme in extension headers: they are not the client's.
            for (HttpConversionUtil.ExtensionHeaderNames name : HttpConversionUtil.ExtensionHeaderNames.values()) {
                request.headers().remove(name.text());
            }
        }
        RequestHeadCheck.Verdict verdict = RequestHeadCheck.check(request);
        if (verdict != RequestHeadCheck.PASS && verdict != RequestHeadCheck.OPTIONS_ASTERISK) {
            reject(ctx, request, verdict.status(), verdict.reason());
            return;
        }
        entryPoint.requestStarted();
        idleSince = 0;
        respondingSince = System.nanoTime();
        current = new Exchange(ctx, request, this);
        responseComplete = false;
        if (verdict == RequestHeadCheck.OPTIONS_ASTERISK) {
            current.respond(HttpResponseStatus.OK, "");
            return;
        }
        long maxBody = entryPoint.config().http().maxRequestBodyBytes();
        if (maxBody > 0 && !current.limitRequestBody(maxBody)) {
            return; // 413 before the body is read or any backend contacted (and before 100-continue)
        }
        if (request.headers().contains(HttpHeaderNames.EXPECT) && !answerExpectation(ctx, request)) {
            return;
        }
        RoutingSnapshot snapshot = routing.snapshot();
        if (tls != null && misdirected(snapshot, current)) {
            current.respond(HttpResponseStatus.MISDIRECTED_REQUEST, "Misdirected Request");
            return;
        }
        Route route = snapshot.route(entryPoint.name(), tls != null, current);
        current.route(route);
        RouteHandler handler = route == null ? null : route.handler();
        try {
            if (handler == null) {
                current.respond(HttpResponseStatus.NOT_FOUND, "404 page not found");
            } else {
                handler.handle(current);
            }
        } catch (RuntimeException e) {
            LOG.error("entry point {}: handler {} failed", entryPoint.name(), handler == null ? "-" : handler.name(), e);
            if (current != null && !current.responded()) {
                current.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Internal Server Error");
            }
        }
    }

    /**
     * Whether a request on a TLS connection names a host whose TLS options differ from those its SNI name got (421,
     * as Traefik): otherwise a client could handshake under lax options (no client certificate, say) for one name
     * and then reach a router that demands strict ones through the Host header (domain fronting). Hosts with the
     * same options may share a connection, as HTTP/2 connection reuse does.
     */
    private boolean misdirected(RoutingSnapshot snapshot, Exchange exchange) {
        String host = exchange.host();
        if (host.isEmpty() || host.equals(tls.sni())) {
            return false;
        }
        String forHost = snapshot.tls().optionsName(entryPoint.name(), host);
        String forSni = snapshot.tls().optionsName(entryPoint.name(), tls.sni());
        if (forHost.equals(forSni)) {
            return false;
        }
        LOG.debug("entry point {}: 421 for Host {} on a connection with SNI {}: TLS options {} and {} differ",
                entryPoint.name(), host, tls.sni(), forHost, forSni);
        return true;
    }

    /**
     * {@code Expect: 100-continue} is answered here, so backends never see Expect and clients send their bodies;
     * any other expectation gets 417. Returns whether the request goes on.
     */
    private boolean answerExpectation(ChannelHandlerContext ctx, HttpRequest request) {
        String expect = request.headers().get(HttpHeaderNames.EXPECT);
        request.headers().remove(HttpHeaderNames.EXPECT);
        if (HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.trim())) {
            if (request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
            return true;
        }
        current.respond(HttpResponseStatus.EXPECTATION_FAILED, "Expectation Failed");
        return false;
    }

    /** Malformed requests get a 4xx and the connection is closed; nothing of them reaches a handler. */
    private void rejectMalformed(ChannelHandlerContext ctx, HttpRequest request) {
        Throwable cause = request.decoderResult().cause();
        HttpResponseStatus status = cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                : cause instanceof TooLongFrameException ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                : HttpResponseStatus.BAD_REQUEST;
        reject(ctx, request, status, cause == null ? "?" : cause.getMessage());
    }

    /** Answers a request refused before routing and closes the connection: what follows on it is never read. */
    private void reject(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status, String reason) {
        LOG.debug("entry point {}: {} for a malformed request from {}: {}", entryPoint.name(), status.code(),
                ctx.channel().remoteAddress(), reason);
        entryPoint.requestStarted();
        closeAfterResponse = true;
        discardRest = true;
        current = new Exchange(ctx, request, this);
        current.requestContent(LastHttpContent.EMPTY_LAST_CONTENT);
        responseComplete = false;
        current.respond(status, status.reasonPhrase());
    }

    /** Whether the connection may serve another request after this one (the client's wish aside). */
    boolean mayKeepAlive() {
        return !closeAfterResponse && !entryPoint.isDraining();
    }

    /** Called by the exchange once its response is fully written (or failed). */
    void responseComplete(Exchange exchange, boolean keepAlive) {
        if (exchange != current || responseComplete) {
            return;
        }
        responseComplete = true;
        entryPoint.exchangeCompleted(exchange);
        respondingSince = 0;
        if (!keepAlive) {
            entryPoint.requestFinished();
            discardRest = true;
            current = null;
            ctx.close();
            return;
        }
        if (exchange.requestComplete()) {
            finishExchange();
        }
        // Otherwise the rest of the request body is read and dropped; the exchange ends with it.
    }

    private void finishExchange() {
        entryPoint.requestFinished();
        current = null;
        idleSince = System.nanoTime();
        if (entryPoint.isDraining()) {
            ctx.close();
            return;
        }
        // Pipelined messages read while the previous response was going out: the next request's head AND the rest
        // of it (its body and end) are handed on now, so that its exchange sees a complete request (a bodyless
        // request's head waits for its end before it is flushed to the backend).
        while (!waiting.isEmpty() && (current == null || !current.requestComplete())) {
            channelRead(ctx, waiting.poll());
        }
        if (current == null || !current.requestComplete()) {
            // Turning auto-read back on starts a read; when it is on already (the usual keep-alive case) the
            // connection is being read and nothing is to be done.
            ReadResumption.resume(ctx.channel());
        }
    }

    /** A protocol upgrade took the connection: stop parsing HTTP; what follows is relayed as bytes. */
    void upgraded(Exchange exchange) {
        upgraded = true;
        responseComplete = true;
        entryPoint.requestFinished();
        current = null;
        ctx.pipeline().remove("codec");
        ctx.pipeline().remove(this);
    }

    /**
     * Closes the connection when one of the responding timeouts (nanoseconds, 0 = off) has passed; called by the
     * entry point's sweep from another thread, so it only reads volatile timestamps and closes on the event loop.
     */
    void enforceTimeouts(long now, long idle, long read, long write) {
        long reading = readingSince;
        long idleAt = idleSince;
        long responding = respondingSince;
        String expired = read > 0 && reading != 0 && now - reading > read ? "readTimeout"
                : idle > 0 && idleAt != 0 && reading == 0 && now - idleAt > idle ? "idleTimeout"
                : write > 0 && responding != 0 && now - responding > write ? "writeTimeout"
                : null;
        if (expired != null && ctx != null && !upgraded) {
            LOG.debug("entry point {}: closing {} from {}: {}", entryPoint.name(),
                    connectionOfStream == null ? "connection" : "stream", ctx.channel().remoteAddress(), expired);
            ctx.close();
        }
        Set<HttpConnectionHandler> open = streams;
        if (open != null) {
            // Streams have the read and write deadlines of a request; idleness is the connection's alone.
            open.forEach(stream -> stream.enforceTimeouts(now, 0, read, write));
        }
    }

    /** A handler placed before the HTTP codec: notes when the first byte of a request arrives (readTimeout). */
    ChannelInboundHandlerAdapter firstByteMarker() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (readingSince == 0) {
                    readingSince = System.nanoTime();
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("entry point {}: connection from {} failed: {}", entryPoint.name(), ctx.channel().remoteAddress(),
                cause.toString());
        ctx.close();
    }

    /**
     * Closes the connection now if no request is in progress (graceful shutdown). An HTTP/2 connection has no
     * request of its own: closing it sends GOAWAY, and its codec closes it once the open streams are done.
     */
    void closeIfIdle() {
        if (ctx == null) {
            return;
        }
        ctx.executor().execute(() -> {
            if (current == null && !upgraded) {
                ctx.close();
            }
        });
    }

    void forceClose() {
        if (ctx == null) {
            return;
        }
        ctx.executor().execute(() -> {
            if (http2 != null) {
                http2.gracefulShutdownTimeoutMillis(0); // closing sends GOAWAY and no longer waits for streams
            }
            ctx.close();
        });
    }
}
