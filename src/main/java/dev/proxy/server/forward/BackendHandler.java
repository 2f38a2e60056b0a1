package dev.proxy.server.forward;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/** The last handler of a backend connection: hands what the backend sends to the call currently using it. */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private final BackendPool pool;
    private final Origin origin;
    private ProxyCall call;
    private long idleSince;

    BackendHandler(BackendPool pool, Origin origin) {
        this.pool = pool;
        this.origin = origin;
    }

    void attach(ProxyCall c) {
        this.call = c;
    }

    void detach() {
        this.call = null;
    }

    void idleSince(long nanos) {
        idleSince = nanos;
    }

    long idleSince() {
        return idleSince;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ProxyCall c = call;
        if (c == null) {
            // Bytes from an idle backend (e.g. a late response): the connection cannot be trusted any more.
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        c.onBackendMessage(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (call != null) {
            call.flushToClient();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (call != null && ctx.channel().isWritable()) {
            call.onBackendWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        pool.closed(ctx.channel(), origin);
        ProxyCall c = call;
        call = null;
        if (c != null) {
            c.onBackendClosed(null);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ProxyCall c = call;
        call = null;
        ctx.close();
        if (c != null) {
            c.onBackendClosed(cause);
        }
    }

}
