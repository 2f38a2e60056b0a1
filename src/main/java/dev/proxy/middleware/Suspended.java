package dev.proxy.middleware;

import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request waiting for asynchronous work (a bcrypt check on the verifier pool, a Redis round trip) before its chain
 * goes on. The rest runs on the connection's event loop again, like every other step, and not at all if the client
 * has gone meanwhile. Reading a request body is paused while waiting, so a large upload cannot pile up in memory.
 */
final class Suspended {

    private static final Logger LOG = LoggerFactory.getLogger(Suspended.class);

    private final Exchange exchange;
    private final boolean pausedReads;
    private boolean aborted;

    /** Must be created on the exchange's event loop. */
    Suspended(Exchange exchange) {
        this.exchange = exchange;
        this.pausedReads = !exchange.requestComplete();
        if (pausedReads) {
            exchange.pauseClientReads();
        }
        exchange.onAbort(() -> aborted = true);
    }

    /** Continues with {@code rest} on the exchange's event loop; may be called from any thread. */
    void resume(Runnable rest) {
        try {
            exchange.clientChannel().eventLoop().execute(() -> run(rest));
        } catch (RejectedExecutionException shuttingDown) {
            LOG.debug("event loop gone; request dropped");
        }
    }

    private void run(Runnable rest) {
        if (aborted || !exchange.clientChannel().isActive()) {
            return;
        }
        exchange.onAbort(null);
        if (pausedReads) {
            exchange.resumeClientReads();
        }
        try {
            rest.run();
        } catch (RuntimeException e) {
            // Off the connection handler's own try/catch: answer here as it would.
            LOG.error("{} {}: middleware failed", exchange.method(), exchange.path(), e);
            if (!exchange.responded()) {
                exchange.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Internal Server Error");
            }
        }
    }
}
