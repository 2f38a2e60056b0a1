package dev.proxy.server.forward;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.ServersTransportConfig;
import dev.proxy.server.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import javax.net.ssl.SSLException;

/**
 * Keep-alive connections to backends. Each I/O thread has its own idle connections per origin, and a request takes
 * one from the thread its client connection runs on: no locks, no thread hops on the request path. Connections
 * idle longer than {@code idleConnTimeout} are closed; at most {@code maxIdleConnsPerHost} stay per thread and origin.
 * {@code h2c://} servers get multiplexed HTTP/2 connections instead, per thread too (see {@link H2cConnections}).
 */
@Singleton
public class BackendPool {

    private static final int MAX_RESPONSE_HEADER_SIZE = 64 * 1024;

    private final NettyTransport transport;
    private final ServersTransportConfig config;
    private final Map<EventLoop, Map<Origin, ArrayDeque<Channel>>> idle = new ConcurrentHashMap<>();
    private final BackendTls backendTls;
    private final H2cConnections h2c;
    private volatile SslContext tls;

    public BackendPool(NettyTransport transport, InstallConfig install) {
        this(transport, install, new BackendTls());
    }

    @jakarta.inject.Inject
    public BackendPool(NettyTransport transport, InstallConfig install, BackendTls backendTls) {
        this.transport = transport;
        this.config = install.serversTransport();
        this.backendTls = backendTls;
        this.h2c = new H2cConnections(transport, config, this);
    }

    /** The {@link BackendTls} key for the targets of {@code service}: the name when it has a profile, else empty. */
    public String tlsProfile(String qualifiedService) {
        return backendTls.has(qualifiedService) ? qualifiedService : "";
    }

    /** Gives an idle connection to {@code origin} on {@code loop}, or dials one; the callback runs on {@code loop}. */
    void acquire(EventLoop loop, Origin origin, boolean fresh, BiConsumer<BackendConnection, Throwable> callback) {
        if (origin.h2c()) {
            h2c.acquire(loop, origin, fresh, callback); // a stream on a shared connection, see H2cConnections
            return;
        }
        if (!fresh) {
            ArrayDeque<Channel> idleHere = idleOn(loop).get(origin);
            Channel ch;
            while (idleHere != null && (ch = idleHere.pollLast()) != null) {
                if (ch.isActive()) {
                    callback.accept(BackendConnection.of(ch, true), null);
                    return;
                }
            }
        }
        Duration dial = config.forwardingTimeouts().dialTimeout();
        ChannelFuture connect = new Bootstrap()
                .group(loop)
                .channel(transport.socketChannelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, dial.toMillis()))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) throws SSLException {
                        ChannelPipeline p = ch.pipeline();
                        if (origin.tls()) {
                            p.addLast("tls", tlsContext(origin).newHandler(ch.alloc(), origin.host(), origin.port()));
                        }
                        // Responses are parsed as strictly as requests (settings pinned, not Netty's defaults):
                        // both Transfer-Encoding and Content-Length, duplicate Content-Length, bad chunking or bare
                        // LF make the response malformed → 502, and the connection is closed, never pooled.
                        p.addLast("codec", new HttpClientCodec(new HttpDecoderConfig()
                                .setMaxHeaderSize(MAX_RESPONSE_HEADER_SIZE)
                                .setValidateHeaders(true)
                                .setStrictLineParsing(true)
                                .setAllowDuplicateContentLengths(false)
                                .setUseRfc9112TransferEncoding(true), HttpClientCodec.DEFAULT_FAIL_ON_MISSING_RESPONSE,
                                HttpClientCodec.DEFAULT_PARSE_HTTP_AFTER_CONNECT_REQUEST));
                        p.addLast("backend", new BackendHandler(BackendPool.this, origin));
                    }
                })
                .connect(origin.host(), origin.port());
        connect.addListener(f -> {
            if (f.isSuccess()) {
                callback.accept(BackendConnection.of(connect.channel(), false), null);
            } else {
                callback.accept(null, f.cause());
            }
        });
    }

    /** Returns a connection whose exchange finished cleanly; closes it when the pool is full. */
    void release(Channel ch, Origin origin) {
        if (ch instanceof Http2StreamChannel) {
            ch.close(); // an HTTP/2 stream is used once; its connection stays with H2cConnections
            return;
        }
        if (!ch.isActive()) {
            return;
        }
        ArrayDeque<Channel> idleHere = idleOn(ch.eventLoop()).computeIfAbsent(origin, o -> new ArrayDeque<>());
        if (idleHere.size() >= config.maxIdleConnsPerHost()) {
            ch.close();
            return;
        }
        ch.pipeline().get(BackendHandler.class).idleSince(System.nanoTime());
        idleHere.addLast(ch);
    }

    /** The idle connections of one event loop; the first use starts that loop's idle sweep. */
    private Map<Origin, ArrayDeque<Channel>> idleOn(EventLoop loop) {
        Map<Origin, ArrayDeque<Channel>> here = idle.get(loop);
        if (here == null) {
            here = idle.computeIfAbsent(loop, l -> new HashMap<>());
            Duration timeout = config.forwardingTimeouts().idleConnTimeout();
            if (!timeout.isZero()) {
                long period = Math.max(50, Math.min(1000, timeout.toMillis() / 4));
                Map<Origin, ArrayDeque<Channel>> mine = here;
                loop.scheduleAtFixedRate(() -> sweep(mine, timeout.toNanos()), period, period, TimeUnit.MILLISECONDS);
            }
        }
        return here;
    }

    /**
     * Closes connections idle longer than {@code idleConnTimeout}; runs on the loop that owns them. A sweep per loop
     * replaces a timer handler on every connection (which cost work on every read).
     */
    private static void sweep(Map<Origin, ArrayDeque<Channel>> here, long timeoutNanos) {
        long deadline = System.nanoTime() - timeoutNanos;
        for (ArrayDeque<Channel> deque : here.values()) {
            // Oldest first: released connections are added at the end.
            Channel ch;
            while ((ch = deque.peekFirst()) != null
                    && ch.pipeline().get(BackendHandler.class).idleSince() - deadline < 0) {
                deque.pollFirst();
                ch.close();
            }
        }
    }

    /** Forgets a closed connection (called on its event loop). */
    void closed(Channel ch, Origin origin) {
        Map<Origin, ArrayDeque<Channel>> here = idle.get(ch.eventLoop());
        ArrayDeque<Channel> idleHere = here == null ? null : here.get(origin);
        if (idleHere != null) {
            idleHere.remove(ch);
        }
    }

    private SslContext tlsContext(Origin origin) throws SSLException {
        if (!origin.tlsProfile().isEmpty()) {
            SslContext own = backendTls.get(origin.tlsProfile());
            if (own == null) {
                // Fail closed: never fall back to the default client for a service that needs its own identity.
                throw new SSLException("no TLS settings for the servers of " + origin.tlsProfile() + " any more");
            }
            return own;
        }
        SslContext c = tls;
        if (c == null) {
            c = SslContextBuilder.forClient().build();
            tls = c;
        }
        return c;
    }

    /** A backend connection and whether it came from the pool (a reused one may have been closed by the backend). */
    record BackendConnection(Channel channel, boolean reused) {
        static BackendConnection of(Channel ch, boolean reused) {
            return new BackendConnection(ch, reused);
        }
    }
}
