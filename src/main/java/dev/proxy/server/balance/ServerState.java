package dev.proxy.server.balance;

import dev.proxy.server.forward.Target;

/** A load balancer's view of one server: where it is, its weight, whether it is up, and its sticky-cookie value. */
public final class ServerState {

    private final Target target;
    private final int weight;
    private final String cookieValue;
    private volatile boolean up = true;
    /** Until when (System.nanoTime) passive health checking keeps the server out; 0 when it does not. */
    private volatile long passiveDownUntil;
    private long[] recentFailures;
    private int nextFailure;

    ServerState(Target target, int weight, String cookieValue) {
        this.target = target;
        this.weight = weight;
        this.cookieValue = cookieValue;
    }

    public Target target() {
        return target;
    }

    public int weight() {
        return weight;
    }

    public boolean isUp() {
        long until = passiveDownUntil;
        return up && (until == 0 || System.nanoTime() - until >= 0);
    }

    /**
     * Records a failed request; returns true when it makes {@code max} failures within {@code window} — the
     * server then leaves the rotation for the window. Failures are rare, so a lock here costs nothing.
     */
    synchronized boolean recordFailure(long now, long windowNanos, int max) {
        if (recentFailures == null || recentFailures.length != max) {
            recentFailures = new long[max];
            nextFailure = 0;
        }
        recentFailures[nextFailure] = now;
        nextFailure = (nextFailure + 1) % max;
        long oldestOfLastMax = recentFailures[nextFailure]; // the ring holds the last `max` failure times
        boolean tripped = oldestOfLastMax != 0 && now - oldestOfLastMax <= windowNanos;
        if (tripped) {
            passiveDownUntil = now + windowNanos;
            java.util.Arrays.fill(recentFailures, 0);
        }
        return tripped;
    }

    /** Sets the health; returns whether it changed. */
    boolean setUp(boolean value) {
        boolean changed = up != value;
        up = value;
        return changed;
    }

    String cookieValue() {
        return cookieValue;
    }
}
