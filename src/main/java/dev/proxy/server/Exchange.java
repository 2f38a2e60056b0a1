package dev.proxy.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import dev.proxy.rules.RequestFacts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One request on one client connection, from its head to the end of its response. Handlers read the request
 * through it, take its body ({@link #requestBodyTo}) and answer through it — with a complete response or a streamed
 * head and body. Always used on the connection's event loop.
 */
public final class Exchange implements RequestFacts {

    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final String originalUri;
    private final HttpConnectionHandler connection;
    private final String originalHost;
    private final HttpVersion clientVersion;
    private final RequestTarget target;
    private final RequestBody requestBody = new RequestBody();
    private final ResponseWriter writer;
    private List<Map.Entry<String, String>> upstreamHeaders;
    private Runnable onClientWritable;
    private Runnable onAbort;
    private final long startNanos = System.nanoTime();
    private Route route;
    private String serviceUrl;

    Exchange(ChannelHandlerContext ctx, HttpRequest request, HttpConnectionHandler connection) {
        this.ctx = ctx;
        this.request = request;
        this.connection = connection;
        this.originalHost = request.headers().get(HttpHeaderNames.HOST, "");
        this.originalUri = request.uri();
        this.clientVersion = request.protocolVersion();
        this.target = new RequestTarget(request, originalHost);
        // Keep-alive as the client asked, decided before any handler rewrites the head for a backend (which removes
        // Connection).
        this.writer = new ResponseWriter(ctx, this, connection, requestBody, HttpUtil.isKeepAlive(request),
                clientVersion);
    }

    /**
     * The HTTP version of the request as the handlers see it: HTTP/1.1 for an HTTP/2 stream too, whose frames are
     * turned into HTTP/1.1 objects (see {@link #isHttp2()}).
     */
    public HttpVersion clientVersion() {
        return clientVersion;
    }

    /** Whether the client sent this request on an HTTP/2 stream. */
    public boolean isHttp2() {
        return connection.isHttp2Stream();
    }

    public HttpRequest request() {
        return request;
    }

    public String entryPoint() {
        return connection.entryPointName();
    }

    public EntryPoint entryPointInfo() {
        return connection.entryPoint();
    }

    /** Whether the request came over TLS (the connection's, not the entry point's: one port serves both). */
    public boolean isTls() {
        return connection.tls() != null;
    }

    /** What the connection's TLS handshake negotiated; null on a plain connection. */
    public ConnectionTls tls() {
        return connection.tls();
    }

    /** The request path without the query string (from an absolute-form target, without scheme and authority). */
    @Override
    public String path() {
        return target.path();
    }

    /**
     * Changes the path forwarded to the backend (stripPrefix, addPrefix, replacePath): the request target becomes
     * origin form with the new path and the same query, and {@link #path()} returns it from now on. Routing is
     * already done.
     */
    public void rewritePath(String newPath) {
        target.rewritePath(newPath);
    }

    /**
     * A request header for the backend that the forwarder sets after its own {@code X-Forwarded-*} handling, which
     * would otherwise drop it as client-supplied (stripPrefix's {@code X-Forwarded-Prefix}, custom request headers);
     * an empty value removes the header.
     */
    public void setUpstreamHeader(String name, String value) {
        if (upstreamHeaders == null) {
            upstreamHeaders = new ArrayList<>(2);
        }
        upstreamHeaders.add(Map.entry(name, value));
    }

    /** The headers given to {@link #setUpstreamHeader}, in order. */
    public List<Map.Entry<String, String>> upstreamHeaders() {
        return upstreamHeaders == null ? List.of() : upstreamHeaders;
    }

    /** The raw query string without {@code ?}, or empty. */
    public String rawQuery() {
        return target.rawQuery();
    }

    /** The request host, lower case, without port; empty when the request has none. */
    @Override
    public String host() {
        return target.host();
    }

    /** The Host header as the client sent it (with port). */
    public String originalHost() {
        return originalHost;
    }

    @Override
    public String method() {
        return request.method().name();
    }

    @Override
    public List<String> headerValues(String name) {
        return request.headers().getAll(name);
    }

    /** Decoded values of a query parameter; null when absent. */
    @Override
    public List<String> queryValues(String name) {
        return target.queryValues(name);
    }

    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) ctx.channel().remoteAddress();
    }

    @Override
    public InetAddress clientAddress() {
        return connection.clientAddress();
    }

    /** The client address as text (cached per connection). */
    public String clientIp() {
        return connection.clientIp();
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) ctx.channel().localAddress();
    }

    public boolean isHead() {
        return request.method().equals(HttpMethod.HEAD);
    }

    /** The client connection's channel (its event loop is where backends are dialled). */
    public Channel clientChannel() {
        return ctx.channel();
    }

    // ---- request body ----

    /** Sends the request body (what has arrived and what will) to the sink. */
    public void requestBodyTo(RequestBodySink sink) {
        requestBody.to(sink);
    }

    void requestContent(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            // A malformed chunk (bad size, missing CRLF): the parser stops here; the request must not go on.
            content.release();
            rejectBody(HttpResponseStatus.BAD_REQUEST);
        } else if (!requestBody.withinLimit(content)) {
            content.release();
            rejectBody(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
        } else {
            requestBody.arrived(content, writer.responded());
        }
    }

    /**
     * Limits the request body to {@code max} bytes (entry point and {@code buffering} middleware; the lowest limit
     * wins). A declared Content-Length over it is answered 413 at once, before any backend is contacted, and false is
     * returned; a chunked body is cut off where it crosses the limit: the backend request is aborted and the client
     * gets 413 if its response has not started (the connection is closed either way).
     */
    public boolean limitRequestBody(long max) {
        long declared = HttpUtil.getContentLength(request, -1L);
        if (declared > max || !requestBody.limit(max)) {
            rejectBody(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
            return false;
        }
        return true;
    }

    private void rejectBody(HttpResponseStatus status) {
        if (requestBody.complete() && writer.responded()) {
            return;
        }
        requestBody.abort();
        closeAfterResponse();
        if (!writer.responded()) {
            respond(status, status.reasonPhrase());
        } else {
            abortResponse();
        }
    }

    public boolean requestComplete() {
        return requestBody.complete();
    }

    /** Whether the request has a body to stream (Content-Length &gt; 0 or chunked). */
    public boolean hasRequestBody() {
        return HttpUtil.isTransferEncodingChunked(request) || HttpUtil.getContentLength(request, 0L) > 0;
    }

    /** Stops reading from the client (backpressure while a backend cannot take more). */
    public void pauseClientReads() {
        ctx.channel().config().setAutoRead(false);
    }

    public void resumeClientReads() {
        ReadResumption.resume(ctx.channel());
    }

    public boolean clientWritable() {
        return ctx.channel().isWritable();
    }

    /** Called when the client connection becomes writable again after {@link #clientWritable()} was false. */
    public void onClientWritable(Runnable r) {
        this.onClientWritable = r;
    }

    /** Called if the client connection closes before the response is complete. */
    public void onAbort(Runnable r) {
        this.onAbort = r;
    }

    void clientWritabilityChanged() {
        if (onClientWritable != null && ctx.channel().isWritable()) {
            onClientWritable.run();
        }
    }

    void aborted() {
        writer.abandonFilters();
        requestBody.releasePending();
        if (onAbort != null) {
            onAbort.run();
        }
    }

    // ---- response (written by ResponseWriter) ----

    /** Lets a middleware adjust the response head before it is sent (headers, cookies). */
    public void addResponseHeadHook(Consumer<HttpResponse> hook) {
        writer.addHeadHook(hook);
    }

    /** Lets a middleware transform the response body (applied in the order added). */
    public void addResponseBodyFilter(ResponseBodyFilter filter) {
        writer.addBodyFilter(filter);
    }

    /**
     * For read-only internal services (ping, API, dashboard, metrics): answers 405 with {@code Allow: GET, HEAD} to any
     * other method and returns true; returns false for GET and HEAD, which the caller then serves.
     */
    public boolean refuseUnlessGetOrHead() {
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD)) {
            return false;
        }
        FullHttpResponse r = textResponse(HttpResponseStatus.METHOD_NOT_ALLOWED, "Method Not Allowed");
        r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        respond(r);
        return true;
    }

    /** Answers with a plain-text body (none for HEAD requests, which still get its length). */
    public void respond(HttpResponseStatus status, String body) {
        respond(textResponse(status, body));
    }

    /** A plain-text response for this request, not yet sent (callers may add headers). */
    public FullHttpResponse textResponse(HttpResponseStatus status, String body) {
        return response(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A complete response for this request, not yet sent (callers may add headers): the body with its type and
     * length, or only its length for HEAD; no Content-Type when the body is empty.
     */
    public FullHttpResponse response(HttpResponseStatus status, String contentType, byte[] body) {
        ByteBuf content = isHead() ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        if (body.length > 0) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    /** Writes a complete response and flushes it. */
    public void respond(FullHttpResponse response) {
        writer.respond(response);
    }

    /**
     * Starts a streamed response: its head is written with the first body chunk or flush (with the body's end as one
     * message when that follows at once). The connection's keep-alive decision is made here and written into the head.
     */
    public void sendResponseHead(HttpResponse head) {
        writer.sendHead(head);
    }

    /** Sends what {@link #sendResponseContent} wrote (a relay flushes once per read burst, not per chunk). */
    public void flushResponse() {
        writer.flush();
    }

    void flushRequestBody() {
        requestBody.flush();
    }

    /**
     * Writes (without flushing) a body chunk of a streamed response; the last one completes the exchange. Only the
     * last write is awaited: the others use the void promise (no promise per chunk; a failed write fires
     * exceptionCaught, which closes the connection).
     */
    public void sendResponseContent(HttpContent content) {
        writer.sendContent(content);
    }

    /** Ends the response without further bytes after a failure mid-stream: the client connection is closed. */
    public void abortResponse() {
        writer.abort();
    }

    /** Marks the keep-alive decision void: the connection closes after this response (e.g. after an upgrade). */
    public void closeAfterResponse() {
        writer.closeAfter();
    }

    public boolean responded() {
        return writer.responded();
    }

    void route(Route route) {
        this.route = route;
    }

    /** Notes the backend server chosen for this request (access log {@code ServiceURL}). */
    public void serviceUrl(String url) {
        this.serviceUrl = url;
    }

    /** The record of this exchange for listeners; the response is complete or the exchange ended. */
    ExchangeRecord record() {
        RouteHandler handler = route == null ? null : route.handler();
        return new ExchangeRecord(entryPoint(), route == null ? null : route.name(),
                handler == null ? null : handler.name(), request.method().name(), originalUri,
                isHttp2() ? "HTTP/2.0" : clientVersion.text(), originalHost, request.headers(), clientAddress(),
                writer.status(), writer.bytesSent(), startNanos, System.nanoTime() - startNanos,
                handler != null && handler.name().endsWith("@internal"), serviceUrl, isTls());
    }

    /** Hands the raw connection over (protocol upgrade): the HTTP codec is removed and the exchange ends. */
    public Channel takeOverConnection() {
        connection.upgraded(this);
        return ctx.channel();
    }
}
