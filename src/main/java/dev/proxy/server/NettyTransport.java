package dev.proxy.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * The event loops every entry point (and, with the routing core, every backend connection) runs on: native epoll
 * on Linux, NIO elsewhere. One worker thread per core; a connection to a backend is made on the event loop of the
 * client connection that needs it, so a proxied request never changes threads.
 */
@Singleton
public class NettyTransport {

    private final boolean epoll = Epoll.isAvailable();
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;

    public NettyTransport() {
        var factory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("proxy-accept"), factory);
        this.workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory("proxy-io"), factory);
    }

    public EventLoopGroup acceptors() {
        return acceptors;
    }

    public EventLoopGroup workers() {
        return workers;
    }

    public Class<? extends ServerChannel> serverChannelType() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends SocketChannel> socketChannelType() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public String kind() {
        return epoll ? "epoll" : "nio";
    }

    @PreDestroy
    public void close() {
        acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
