package dev.proxy.provider;

/**
 * A source of dynamic configuration. A provider publishes <em>complete</em> snapshots of its configuration under
 * its {@link #name()}, never deltas, and publishes nothing when it cannot read its source, so that the last good
 * snapshot stays in force.
 */
public interface Provider {

    /** Lower-case name, the suffix of its resources: {@code file} gives {@code web@file}. */
    String name();

    /** Starts publishing to {@code sink}; returns promptly (work happens on the provider's own threads). */
    void start(ConfigurationSink sink);

    /** Stops publishing and releases the provider's threads; idempotent. */
    void stop();
}
