package dev.proxy.provider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A {@link SerialScheduler} on a virtual clock: due tasks run in the calling thread, in order of due time, and time
 * moves only through {@link #advance}. Makes throttling and backoff tests exact and free of sleeps.
 */
public final class ManualScheduler implements SerialScheduler {

    private record Task(Duration due, long seq, Runnable run) {
    }

    private final PriorityQueue<Task> queue = new PriorityQueue<>(
            (a, b) -> a.due.equals(b.due) ? Long.compare(a.seq, b.seq) : a.due.compareTo(b.due));
    private Duration now = Duration.ZERO;
    private long seq;
    private boolean running;
    private boolean closed;

    @Override
    public void execute(Runnable task) {
        schedule(Duration.ZERO, task);
    }

    @Override
    public void schedule(Duration delay, Runnable task) {
        if (closed) {
            return;
        }
        queue.add(new Task(now.plus(delay), seq++, task));
        runUntil(now);
    }

    /** Moves the clock forward, running every task that falls due on the way at its due time. */
    public void advance(Duration by) {
        runUntil(now.plus(by));
    }

    public Duration now() {
        return now;
    }

    /** Due times of the tasks waiting, relative to now. */
    public List<Duration> pendingDelays() {
        List<Duration> out = new ArrayList<>();
        queue.stream().sorted(queue.comparator()).forEach(t -> out.add(t.due.minus(now)));
        return out;
    }

    @Override
    public void close() {
        closed = true;
        queue.clear();
    }

    private void runUntil(Duration target) {
        if (running) {
            return; // a task scheduling another: the outer loop runs it when due
        }
        running = true;
        try {
            while (!queue.isEmpty() && queue.peek().due.compareTo(target) <= 0) {
                Task t = queue.poll();
                now = t.due;
                t.run.run();
            }
            now = target;
        } finally {
            running = false;
        }
    }
}
