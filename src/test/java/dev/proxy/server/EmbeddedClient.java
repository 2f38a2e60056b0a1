package dev.proxy.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * A client connection on an {@link EmbeddedChannel}, for unit tests of what answers an {@link Exchange}. The exchange
 * writes into the channel as into a real connection; a flush gate stands for the socket: open, a flush hands every
 * pending byte over at once (a client reading fast); closed, flushes go nowhere and the bytes stay in the channel's
 * outbound buffer (a client that stopped reading). Writability changes reach the exchange as on a real connection.
 */
public final class EmbeddedClient {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final HttpConnectionHandler connection =
            new HttpConnectionHandler(new EntryPoint("web", null, null, null, List.of()), null);
    private boolean flushesBlocked;
    private Exchange exchange;

    /** @param waterMark the outbound buffer sizes (bytes) at which the channel turns unwritable and writable again */
    public EmbeddedClient(WriteBufferWaterMark waterMark) {
        channel.config().setWriteBufferWaterMark(waterMark);
        channel.pipeline().addLast("socket", new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                if (!flushesBlocked) {
                    ctx.flush();
                }
            }
        });
        channel.pipeline().addLast("exchange", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (exchange != null) {
                    exchange.clientWritabilityChanged();
                }
                ctx.fireChannelWritabilityChanged();
            }
        });
    }

    /** The exchange of {@code request} (bodyless: the request is complete) on this connection. */
    public Exchange exchange(HttpRequest request) {
        exchange = new Exchange(channel.pipeline().context("exchange"), request, connection);
        exchange.requestContent(LastHttpContent.EMPTY_LAST_CONTENT);
        return exchange;
    }

    public EmbeddedChannel channel() {
        return channel;
    }

    /** From now on flushes reach nothing: written bytes stay pending, as when the client's socket buffer is full. */
    public void stopReading() {
        flushesBlocked = true;
    }

    /** The client reads again: what is pending is handed over now, and every later flush goes through. */
    public void resumeReading() {
        flushesBlocked = false;
        channel.flush();
    }
}
