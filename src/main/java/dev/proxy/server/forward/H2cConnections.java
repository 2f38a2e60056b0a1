package dev.proxy.server.forward;

import dev.proxy.config.install.ServersTransportConfig;
import dev.proxy.server.NettyTransport;
import dev.proxy.server.forward.BackendPool.BackendConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Connections to {@code h2c://} servers: HTTP/2 in cleartext with prior knowledge. As in {@link BackendPool}, each
 * I/O thread has its own connections, keyed by origin, so the request path takes no lock and never hops threads;
 * unlike HTTP/1, one connection carries many requests at once, each on a stream of its own. A stream is a child
 * channel with Netty's frame-to-HTTP/1 codec and the usual {@link BackendHandler}, so {@link ProxyCall} relays it
 * exactly as it relays an HTTP/1.1 connection — trailers included (gRPC's {@code grpc-status}).
 * <p>
 * Streams beyond the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS} wait in the codec until one ends. A connection
 * the server said GOAWAY to, or that closed, takes no new streams; the next request dials a new one. A connection
 * without streams for {@code idleConnTimeout} is closed.
 */
final class H2cConnections {

    private static final int MAX_RESPONSE_HEADER_SIZE = 64 * 1024;

    private final NettyTransport transport;
    private final ServersTransportConfig config;
    private final BackendPool pool;
    private final Map<EventLoop, Map<Origin, Connection>> connections = new ConcurrentHashMap<>();

    H2cConnections(NettyTransport transport, ServersTransportConfig config, BackendPool pool) {
        this.transport = transport;
        this.config = config;
        this.pool = pool;
    }

    /**
     * Opens a stream to {@code origin} on the loop's connection, dialling it first when there is none (or, with
     * {@code fresh}, always); the callback runs on {@code loop}.
     */
    void acquire(EventLoop loop, Origin origin, boolean fresh, BiConsumer<BackendConnection, Throwable> callback) {
        Map<Origin, Connection> here = on(loop);
        Connection c = here.get(origin);
        boolean reused = c != null && !fresh && c.takesStreams();
        if (!reused) {
            c = dial(loop, origin);
            here.put(origin, c);
        }
        Connection conn = c;
        if (conn.connect.isDone()) {
            openStream(conn, origin, reused, callback);
        } else {
            conn.connect.addListener(f -> openStream(conn, origin, reused, callback));
        }
    }

    private void openStream(Connection c, Origin origin, boolean reused,
                            BiConsumer<BackendConnection, Throwable> callback) {
        if (!c.connect.isSuccess()) {
            callback.accept(null, c.connect.cause());
            return;
        }
        c.lastUsed = System.nanoTime();
        new Http2StreamChannelBootstrap(c.channel())
                .handler(new ChannelInitializer<Http2StreamChannel>() {
                    @Override
                    protected void initChannel(Http2StreamChannel ch) {
                        ch.pipeline().addLast("codec", new Http2StreamFrameToHttpObjectCodec(false));
                        ch.pipeline().addLast("backend", new BackendHandler(pool, origin));
                    }
                })
                .open()
                .addListener((Future<Http2StreamChannel> f) -> {
                    if (f.isSuccess()) {
                        callback.accept(BackendConnection.of(f.getNow(), reused), null);
                    } else {
                        callback.accept(null, f.cause());
                    }
                });
    }

    private Connection dial(EventLoop loop, Origin origin) {
        Duration dial = config.forwardingTimeouts().dialTimeout();
        Http2FrameCodec codec = Http2FrameCodecBuilder.forClient()
                .initialSettings(Http2Settings.defaultSettings()
                        .pushEnabled(false)
                        .maxHeaderListSize(MAX_RESPONSE_HEADER_SIZE))
                // Requests beyond the server's stream limit wait for a free stream instead of failing.
                .encoderEnforceMaxConcurrentStreams(true)
                .build();
        Connection c = new Connection(codec);
        c.connect = new Bootstrap()
                .group(loop)
                .channel(transport.socketChannelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, dial.toMillis()))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast("h2", codec);
                        // Push is disabled in our SETTINGS; a stream the server opens anyway is closed at once.
                        ch.pipeline().addLast("h2streams", new Http2MultiplexHandler(new ChannelInitializer<>() {
                            @Override
                            protected void initChannel(Channel pushed) {
                                pushed.close();
                            }
                        }));
                        ch.pipeline().addLast("watch", new Watch(loop, origin, c));
                    }
                })
                .connect(origin.host(), origin.port());
        codec.connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                if (codec.connection().numActiveStreams() == 0) {
                    c.lastUsed = System.nanoTime();
                }
            }
        });
        return c;
    }

    /** The connections of one event loop; the first use starts that loop's idle sweep. */
    private Map<Origin, Connection> on(EventLoop loop) {
        Map<Origin, Connection> here = connections.get(loop);
        if (here == null) {
            here = connections.computeIfAbsent(loop, l -> new HashMap<>());
            Duration timeout = config.forwardingTimeouts().idleConnTimeout();
            if (!timeout.isZero()) {
                long period = Math.max(50, Math.min(1000, timeout.toMillis() / 4));
                Map<Origin, Connection> mine = here;
                loop.scheduleAtFixedRate(() -> sweep(mine, timeout.toNanos()), period, period, TimeUnit.MILLISECONDS);
            }
        }
        return here;
    }

    private static void sweep(Map<Origin, Connection> here, long timeoutNanos) {
        long deadline = System.nanoTime() - timeoutNanos;
        for (Iterator<Connection> it = here.values().iterator(); it.hasNext(); ) {
            Connection c = it.next();
            if (c.connect.isDone() && c.idle() && c.lastUsed - deadline < 0) {
                it.remove();
                c.channel().close();
            }
        }
    }

    /** One HTTP/2 connection (maybe still connecting) and when it last had a stream. */
    private static final class Connection {
        final Http2FrameCodec codec;
        ChannelFuture connect;
        long lastUsed = System.nanoTime();

        Connection(Http2FrameCodec codec) {
            this.codec = codec;
        }

        Channel channel() {
            return connect.channel();
        }

        /** Still connecting, or connected and free to open streams. */
        boolean takesStreams() {
            if (!connect.isDone()) {
                return true;
            }
            Http2Connection h2 = codec.connection();
            return connect.isSuccess() && channel().isActive() && !h2.goAwayReceived() && !h2.goAwaySent();
        }

        boolean idle() {
            return !connect.isSuccess() || !channel().isActive() || codec.connection().numActiveStreams() == 0;
        }
    }

    /** The last handler of a connection: forgets it when it closes or the server says GOAWAY. */
    private final class Watch extends ChannelInboundHandlerAdapter {
        private final EventLoop loop;
        private final Origin origin;
        private final Connection connection;

        Watch(EventLoop loop, Origin origin, Connection connection) {
            this.loop = loop;
            this.origin = origin;
            this.connection = connection;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2GoAwayFrame) {
                forget(); // streams already open finish; new ones go to a new connection
            }
            ReferenceCountUtil.release(msg); // connection-level frames (SETTINGS, PING): the codec has acted on them
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            forget();
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private void forget() {
            Map<Origin, Connection> here = connections.get(loop);
            if (here != null) {
                here.remove(origin, connection);
            }
        }
    }
}
