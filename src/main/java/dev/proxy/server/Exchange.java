package dev.proxy.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One request on one connection, from its head to the end of its response. Handlers read the request through it
 * and answer through it; the connection learns from it when the response is complete.
 */
public final class Exchange {

    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final HttpConnectionHandler connection;
    private String path;
    private String host;
    private boolean responded;

    Exchange(ChannelHandlerContext ctx, HttpRequest request, HttpConnectionHandler connection) {
        this.ctx = ctx;
        this.request = request;
        this.connection = connection;
    }

    public HttpRequest request() {
        return request;
    }

    public String entryPoint() {
        return connection.entryPointName();
    }

    /** The request path without the query string. */
    public String path() {
        if (path == null) {
            String uri = request.uri();
            int q = uri.indexOf('?');
            path = q < 0 ? uri : uri.substring(0, q);
        }
        return path;
    }

    /** The request host, lower case, without port; empty when the request has none. */
    public String host() {
        if (host == null) {
            String h = request.headers().get(HttpHeaderNames.HOST, "");
            int colon = h.startsWith("[") ? h.indexOf("]:") + 1 : h.lastIndexOf(':');
            host = (colon > 0 ? h.substring(0, colon) : h).toLowerCase(Locale.ROOT);
        }
        return host;
    }

    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) ctx.channel().remoteAddress();
    }

    public boolean isHead() {
        return request.method().equals(HttpMethod.HEAD);
    }

    /** Answers with a plain-text body (none for HEAD requests, which still get its length). */
    public void respond(HttpResponseStatus status, String body) {
        respond(textResponse(status, body));
    }

    /** A plain-text response for this request, not yet sent (callers may add headers). */
    public FullHttpResponse textResponse(HttpResponseStatus status, String body) {
        ByteBuf content = isHead() ? Unpooled.EMPTY_BUFFER : Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        if (!body.isEmpty()) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.getBytes(StandardCharsets.UTF_8).length);
        return response;
    }

    /** Writes a complete response; the connection is kept alive or closed as the request and the proxy's state say. */
    public void respond(FullHttpResponse response) {
        if (responded) {
            response.release();
            throw new IllegalStateException("response already sent");
        }
        responded = true;
        boolean keepAlive = connection.keepAliveAfter(request);
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        ctx.writeAndFlush(response).addListener(f -> connection.responseComplete(this, keepAlive && f.isSuccess()));
    }

    public boolean responded() {
        return responded;
    }
}
