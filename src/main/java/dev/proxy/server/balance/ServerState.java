package dev.proxy.server.balance;

import dev.proxy.server.forward.Target;

/** A load balancer's view of one server: where it is, its weight, whether it is up, and its sticky-cookie value. */
public final class ServerState {

    private final Target target;
    private final int weight;
    private final String cookieValue;
    private volatile boolean up = true;

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
        return up;
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
