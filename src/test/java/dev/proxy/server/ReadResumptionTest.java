package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An HTTP/1 connection's parent channel is the listening socket, not a connection: resuming its reads must not touch
 * that (a flush there is a task on the acceptor's event loop and a cross-thread wake-up for every request served).
 */
class ReadResumptionTest {

    @Test
    void resumingAnAcceptedConnectionTurnsReadingOnAndLeavesTheListeningSocketAlone() throws Exception {
        EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        AtomicInteger listenerFlushes = new AtomicInteger();
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        try {
            Channel listener = new ServerBootstrap().group(acceptor, workers).channel(NioServerSocketChannel.class)
                    .handler(new ChannelOutboundHandlerAdapter() {
                        @Override
                        public void flush(ChannelHandlerContext ctx) {
                            listenerFlushes.incrementAndGet();
                            ctx.flush();
                        }
                    })
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            accepted.complete(ctx.channel());
                            ctx.fireChannelActive();
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
            try (Socket client = new Socket()) {
                client.connect((InetSocketAddress) listener.localAddress());
                Channel connection = accepted.get(10, TimeUnit.SECONDS);
                assertThat(connection.parent()).isSameAs(listener);

                connection.eventLoop().submit(() -> {
                    connection.config().setAutoRead(false);
                    ReadResumption.resume(connection);
                }).sync();
                // Tasks run in order: once this one has run, a flush handed to the acceptor's loop would have, too.
                listener.eventLoop().submit(() -> { }).sync();

                assertThat(connection.config().isAutoRead()).isTrue();
                assertThat(listenerFlushes).hasValue(0);
            } finally {
                listener.close().sync();
            }
        } finally {
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
