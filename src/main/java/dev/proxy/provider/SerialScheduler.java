package dev.proxy.provider;

import java.time.Duration;

/**
 * Runs tasks one at a time, now or after a delay. An interface so that throttling and backoff can be tested on a
 * virtual clock, exactly and without sleeping; production uses {@link ThreadScheduler}.
 */
public interface SerialScheduler extends AutoCloseable {

    /** Runs {@code task} as soon as possible, after the tasks already due. Ignored once closed. */
    void execute(Runnable task);

    /** Runs {@code task} after {@code delay}. Ignored once closed. */
    void schedule(Duration delay, Runnable task);

    /** Drops pending tasks and stops the thread; a running task is interrupted. */
    @Override
    void close();
}
