package dev.proxy.server;

import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.ListenAddress;
import dev.proxy.config.install.RespondingTimeoutsConfig;
import dev.proxy.tls.acme.AcmeChallenges;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listening entry point: binds its address, serves HTTP/1.1 on every accepted connection (plain or TLS, see
 * {@link ProtocolNegotiator}) up to its {@code maxConnections}, and drains gracefully (stop accepting, let in-flight requests finish, close idle
 * keep-alive connections).
 */
public final class EntryPoint {

    private static final Logger LOG = LoggerFactory.getLogger(EntryPoint.class);

    private final String name;
    private final EntryPointConfig config;
    private final RoutingService routing;
    private final AcmeChallenges challenges;
    private final ExchangeListener[] listeners;
    private final Set<HttpConnectionHandler> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Accepted connections not closed yet (counted at accept, before the pipeline runs; see maxConnections). */
    private final AtomicInteger accepted = new AtomicInteger();
    private final LongAdder refused = new LongAdder();
    private final AtomicLong lastRefusalReport = new AtomicLong();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile boolean draining;
    private volatile Channel listener;
    private volatile java.util.concurrent.ScheduledFuture<?> sweep;

    public EntryPoint(String name, EntryPointConfig config, RoutingService routing, AcmeChallenges challenges,
                      List<ExchangeListener> listeners) {
        this.name = name;
        this.config = config;
        this.routing = routing;
        this.challenges = challenges;
        this.listeners = listeners.toArray(ExchangeListener[]::new);
    }

    public String name() {
        return name;
    }

    public EntryPointConfig config() {
        return config;
    }

    /** Binds the listener; throws with the entry point's name and address when the port cannot be taken. */
    public void bind(NettyTransport transport) {
        ListenAddress address = config.listenAddress();
        RespondingTimeoutsConfig timeouts = config.transport().respondingTimeouts();
        int maxConnections = config.transport().maxConnections();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(transport.acceptors(), transport.workers())
                .channel(transport.serverChannelType())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (overCap(ch, maxConnections)) {
                            return;
                        }
                        ChannelPipeline p = ch.pipeline();
                        HttpConnectionHandler connection = new HttpConnectionHandler(EntryPoint.this, routing);
                        // TLS or not, and which protocol, is decided on the first bytes; see ProtocolNegotiator.
                        p.addLast("detect", new ProtocolNegotiator(EntryPoint.this, routing, challenges, connection));
                        p.addLast("http", connection);
                    }
                });
        try {
            listener = bootstrap.bind(address.bindAddress()).syncUninterruptibly().channel();
            startTimeoutSweep(transport, timeouts);
        } catch (Exception e) {
            throw new IllegalStateException("entry point " + name + ": cannot listen on " + config.address() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The connection cap ({@code transport.maxConnections}): a connection over it is closed at once, before a byte is
     * read — no 503, since on a TLS entry point that would take a handshake, the very work the cap is there to
     * spare. Counting at accept (not per request) bounds what idle and slow clients hold: file descriptors, buffers
     * and the timeout sweep's work. Connections already open are not touched. Each entry point counts its own, so a
     * flood on a public entry point cannot take the ping entry point's share.
     */
    private boolean overCap(Channel ch, int maxConnections) {
        if (maxConnections <= 0) {
            return false;
        }
        if (accepted.incrementAndGet() > maxConnections) {
            accepted.decrementAndGet();
            refused.increment();
            ch.config().setOption(ChannelOption.SO_LINGER, 0); // a reset: no TIME_WAIT kept for a refused client
            ch.close();
            reportRefusals(maxConnections);
            return true;
        }
        ch.closeFuture().addListener(f -> accepted.decrementAndGet());
        return false;
    }

    /** Logs refusals at most every ten seconds, with the count so far: a flood must not flood the log too. */
    private void reportRefusals(int maxConnections) {
        long now = System.nanoTime();
        long last = lastRefusalReport.get();
        if ((last == 0 || now - last > TimeUnit.SECONDS.toNanos(10)) && lastRefusalReport.compareAndSet(last, now)) {
            LOG.warn("entry point {}: {} open connections (transport.maxConnections): refusing new ones; {} refused so far",
                    name, maxConnections, refused.sum());
        }
    }

    /** Connections refused so far because the entry point was at {@code transport.maxConnections}. */
    public long refusedConnections() {
        return refused.sum();
    }

    /**
     * Enforces the responding timeouts: {@code idleTimeout} (a keep-alive connection without a request),
     * {@code readTimeout} (from the first byte of a request to its last — a total deadline, so a client trickling
     * header bytes is closed at it; timers reset on every byte would never fire) and {@code writeTimeout} (from the
     * request head to the end of the response). One sweep over the connection set, a few times a second, replaces a
     * timer per connection and a pipeline handler that ran on every read.
     */
    private void startTimeoutSweep(NettyTransport transport, RespondingTimeoutsConfig timeouts) {
        long idle = timeouts.idleTimeout().toNanos();
        long read = timeouts.readTimeout().toNanos();
        long write = timeouts.writeTimeout().toNanos();
        long shortest = java.util.stream.LongStream.of(idle, read, write).filter(t -> t > 0).min().orElse(0);
        if (shortest == 0) {
            return;
        }
        long period = Math.max(20, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(shortest) / 4));
        sweep = transport.workers().next().scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            connections.forEach(c -> c.enforceTimeouts(now, idle, read, write));
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /** The port actually bound (useful when the configured port is 0). */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    public boolean isDraining() {
        return draining;
    }

    /** Stops accepting new connections; accepted connections go on being served. */
    public void stopAccepting() {
        Channel l = listener;
        if (sweep != null && draining) {
            sweep.cancel(false);
        }
        if (l != null && l.isOpen()) {
            l.close().syncUninterruptibly();
            LOG.debug("entry point {}: stopped accepting", name);
        }
    }

    /**
     * Starts draining: idle keep-alive connections close now, busy ones after their current response (which says
     * {@code Connection: close}). Completes when no request is in flight, or after {@code grace}, when the remaining
     * connections are closed.
     */
    public CompletableFuture<Void> drain(Duration grace) {
        draining = true;
        connections.forEach(HttpConnectionHandler::closeIfIdle);
        checkDrained();
        return drained.completeOnTimeout(null, grace.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((v, e) -> {
                    if (inFlight.get() > 0) {
                        LOG.warn("entry point {}: {} request(s) still in flight after graceTimeOut {}, closing",
                                name, inFlight.get(), grace);
                    }
                    connections.forEach(HttpConnectionHandler::forceClose);
                });
    }

    void connectionOpened(HttpConnectionHandler c) {
        connections.add(c);
        if (draining) {
            c.closeIfIdle();
        }
    }

    void connectionClosed(HttpConnectionHandler c) {
        connections.remove(c);
    }

    void exchangeCompleted(Exchange exchange) {
        if (listeners.length == 0) {
            return;
        }
        ExchangeRecord record = exchange.record();
        for (ExchangeListener l : listeners) {
            try {
                l.completed(record);
            } catch (RuntimeException e) {
                LOG.warn("exchange listener {} failed: {}", l.getClass().getSimpleName(), e.toString());
            }
        }
    }

    void requestStarted() {
        inFlight.incrementAndGet();
    }

    void requestFinished() {
        inFlight.decrementAndGet();
        checkDrained();
    }

    private void checkDrained() {
        if (draining && inFlight.get() <= 0) {
            drained.complete(null);
        }
    }

    /** Client connections open now. */
    public int openConnections() {
        return connections.size();
    }

    /** Whether the listener is bound (false before start and once it stopped accepting). */
    public boolean isListening() {
        Channel l = listener;
        return l != null && l.isOpen();
    }

    public int requestsInFlight() {
        return inFlight.get();
    }
}
