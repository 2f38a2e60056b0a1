package dev.proxy.provider.clustertasks;

import io.micronaut.core.annotation.Nullable;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import software.amazon.awssdk.services.ecs.model.Task;

/**
 * The {@code DescribeTasks} answers of running tasks, by task ARN, so that a steady cluster is not described again at
 * every refresh. While an ECS task runs, its containers, network interfaces (ENI addresses), host port bindings and
 * task definition do not change, and a task that stops leaves {@code ListTasks desiredStatus=RUNNING}; what can
 * change is container-level state (a non-essential container stopping, a container's health), so an entry is
 * described again once it is older than {@link #window} ({@code max(60 s, 4 × refreshSeconds)}), minus a per-task
 * jitter of up to half of it (fixed by the ARN; the window is at least four refresh intervals, so the jitter spans at
 * least two of them) so that those re-describes spread over several refreshes instead of all coming at once.
 *
 * <p>Only tasks whose {@code lastStatus} is {@code RUNNING} are kept: a {@code PENDING} or {@code ACTIVATING} task is
 * described at every refresh until it runs. Not thread-safe: {@link TaskFetcher} uses it from one thread, and
 * replaces the whole content only after a successful refresh ({@link #replace}).
 */
final class DescribedTasks {

    /** The least staleness bound, whatever the refresh interval. */
    static final long MIN_WINDOW_NANOS = 60_000_000_000L;

    private record Entry(Task task, long describedAtNanos) {
    }

    private final long windowNanos;
    private final LongSupplier nanoClock;
    private Map<String, Entry> entries = new HashMap<>();

    /**
     * @param refreshSeconds the provider's refresh interval
     * @param nanoClock      a monotonic clock in nanoseconds ({@code System::nanoTime}; a fake one in tests)
     */
    DescribedTasks(int refreshSeconds, LongSupplier nanoClock) {
        this.windowNanos = window(refreshSeconds);
        this.nanoClock = nanoClock;
    }

    /** The staleness bound: {@code max(60 s, 4 × refreshSeconds)}, in nanoseconds. */
    static long window(int refreshSeconds) {
        return Math.max(MIN_WINDOW_NANOS, 4L * refreshSeconds * 1_000_000_000L);
    }

    /** The age at which the entry of {@code arn} is described again: above half the window, at most the window. */
    long staleAfterNanos(String arn) {
        long half = windowNanos / 2;
        return windowNanos - Math.floorMod((long) arn.hashCode() * 0x9E3779B97F4A7C15L, half);
    }

    /** The current time of the clock, to stamp the answers of this refresh with. */
    long now() {
        return nanoClock.getAsLong();
    }

    /** The known, still fresh description of {@code arn} at {@code now}, or null when it must be described. */
    @Nullable Task fresh(String arn, long now) {
        Entry e = entries.get(arn);
        return e == null || now - e.describedAtNanos() >= staleAfterNanos(arn) ? null : e.task();
    }

    /** When the kept description of {@code arn} was made, for an entry carried over unchanged. */
    long describedAt(String arn) {
        return entries.get(arn).describedAtNanos();
    }

    /** Whether a described task may be kept: it runs (its description is settled). */
    static boolean keepable(Task task) {
        return "RUNNING".equals(task.lastStatus()) && task.taskArn() != null && !task.taskArn().isEmpty();
    }

    /**
     * A new content for a successful refresh; ARNs not in it (no longer listed, or no longer running) are dropped.
     */
    static final class Next {
        private final Map<String, Entry> entries = new HashMap<>();

        void put(Task task, long describedAtNanos) {
            entries.put(task.taskArn(), new Entry(task, describedAtNanos));
        }
    }

    /** Replaces the whole content with {@code next}: called only once a refresh has succeeded. */
    void replace(Next next) {
        entries = next.entries;
    }

    /** How many tasks are kept. */
    int size() {
        return entries.size();
    }
}
