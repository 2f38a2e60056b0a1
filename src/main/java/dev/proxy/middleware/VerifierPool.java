package dev.proxy.middleware;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Threads for bcrypt checks, shared by every basicAuth middleware. A bcrypt check costs 50–100 ms of CPU at the
 * usual cost factors; on an event loop it would stall every connection of that loop for as long, and a client
 * guessing passwords would stall them all. Checks therefore run here, one thread per core, and the request waits
 * without holding its loop. The queue is bounded: when it is full (a guessing storm), new checks are refused and the
 * caller answers 503 at once instead of queuing work nobody will wait for.
 */
final class VerifierPool implements AutoCloseable {

    /** Checks that may wait per thread; at ~70 ms each, the last one waits about two seconds. */
    static final int QUEUE_PER_THREAD = 32;

    private final ThreadPoolExecutor executor;
    private final AtomicLong checks = new AtomicLong();

    VerifierPool(int threads) {
        AtomicInteger n = new AtomicInteger();
        executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(threads * QUEUE_PER_THREAD), r -> {
                    Thread t = new Thread(r, "proxy-password-check-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
    }

    static VerifierPool perCore() {
        return new VerifierPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /** Runs {@code check} on a pool thread and hands its result to {@code done}; false if the pool is saturated. */
    boolean submit(BooleanSupplier check, Consumer<Boolean> done) {
        try {
            executor.execute(() -> {
                boolean ok = check.getAsBoolean();
                checks.incrementAndGet();
                done.accept(ok);
            });
            return true;
        } catch (RejectedExecutionException full) {
            return false;
        }
    }

    /** Checks run so far (tests: proof that a request paid for a bcrypt check, or did not). */
    long checksRun() {
        return checks.get();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
