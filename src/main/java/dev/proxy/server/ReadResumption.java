package dev.proxy.server;

import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2StreamChannel;

/**
 * Turns reading back on after backpressure. On an HTTP/2 stream (a child channel of a connection) that read hands the
 * stream's buffered frames on and writes a WINDOW_UPDATE to the connection, which Netty leaves unflushed when the
 * read is resumed from outside the connection's own read cycle (from the other side of a relay): the peer then never
 * learns it may send more, and a large upload or download stalls for good. Seen with a 1 MB gRPC message through a
 * TLS connection on io_uring in about half of the runs; the connection is flushed here, so it cannot happen.
 * <p>
 * Only a stream's parent is its connection: an HTTP/1 connection's parent is the listening socket, whose flush is a
 * task on the acceptor's event loop (a cross-thread wake-up per request, ~11 % of the proxy's CPU samples under load).
 */
public final class ReadResumption {

    private ReadResumption() {
    }

    public static void resume(Channel channel) {
        channel.config().setAutoRead(true);
        if (channel instanceof Http2StreamChannel stream) {
            stream.parent().flush();
        }
    }
}
