package dev.proxy.provider;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link SerialScheduler} on one daemon thread of its own. */
public final class ThreadScheduler implements SerialScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    public ThreadScheduler(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public void execute(Runnable task) {
        schedule(Duration.ZERO, task);
    }

    @Override
    public void schedule(Duration delay, Runnable task) {
        try {
            executor.schedule(() -> runLogged(task), delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // closed: nothing more runs, by design
        }
    }

    /** The executor would keep an exception in a future nobody reads; say it instead, and keep the thread. */
    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("unexpected failure in {}", Thread.currentThread().getName(), e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
