package dev.proxy.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loops every entry point and every backend connection runs on. One worker thread per core; a connection
 * to a backend is made on the event loop of the client connection that needs it, so a proxied request never changes
 * threads.
 *
 * <p>The I/O mechanism, from the JVM system property {@code proxy.transport}: {@code auto} (the default) takes
 * io_uring where the kernel offers it (Linux 5.14+, not disabled by {@code kernel.io_uring_disabled} or a seccomp
 * profile), else native epoll on Linux, else NIO; {@code io_uring}, {@code epoll} and {@code nio} ask for one (and
 * fall back the same way when it is not available). io_uring submits the sends of a whole event-loop pass in one
 * system call, so a backend on the same core is woken once per pass instead of once per send: about 0.8 × the CPU
 * per proxied request of epoll (README, "Benchmarks").
 */
@Singleton
public class NettyTransport {

    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);
    static final String PROPERTY = "proxy.transport";

    enum Kind { IO_URING, EPOLL, NIO }

    private final Kind kind;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;

    @jakarta.inject.Inject
    public NettyTransport() {
        this(System.getProperty(PROPERTY, "auto"));
    }

    /** @param requested {@code auto}, {@code io_uring}, {@code epoll} or {@code nio} (see the class comment) */
    public NettyTransport(String requested) {
        this.kind = choose(requested);
        IoHandlerFactory factory = switch (kind) {
            case IO_URING -> IoUringIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
        this.acceptors = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("proxy-accept"), factory);
        this.workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                new DefaultThreadFactory("proxy-io"), factory);
        LOG.debug("network I/O: {}", kind());
    }

    /** The transport for {@code requested}: the one asked for when available, else the next best. */
    static Kind choose(String requested) {
        String wanted = requested.trim().toLowerCase(Locale.ROOT);
        boolean known = switch (wanted) {
            case "auto", "io_uring", "epoll", "nio" -> true;
            default -> false;
        };
        if (!known) {
            LOG.warn("-D{}={}: not one of auto, io_uring, epoll, nio; using auto", PROPERTY, requested);
            wanted = "auto";
        }
        if ((wanted.equals("auto") || wanted.equals("io_uring")) && IoUring.isAvailable()) {
            return Kind.IO_URING;
        }
        if (wanted.equals("io_uring")) {
            LOG.info("-D{}=io_uring: not available here ({}); using the next best", PROPERTY,
                    IoUring.unavailabilityCause());
        }
        return !wanted.equals("nio") && Epoll.isAvailable() ? Kind.EPOLL : Kind.NIO;
    }

    public EventLoopGroup acceptors() {
        return acceptors;
    }

    public EventLoopGroup workers() {
        return workers;
    }

    public Class<? extends ServerChannel> serverChannelType() {
        return switch (kind) {
            case IO_URING -> IoUringServerSocketChannel.class;
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    public Class<? extends SocketChannel> socketChannelType() {
        return switch (kind) {
            case IO_URING -> IoUringSocketChannel.class;
            case EPOLL -> EpollSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    /** {@code io_uring}, {@code epoll} or {@code nio}. */
    public String kind() {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    @PreDestroy
    public void close() {
        acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
