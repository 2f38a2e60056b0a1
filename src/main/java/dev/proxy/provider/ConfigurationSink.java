package dev.proxy.provider;

import dev.proxy.config.dynamic.DynamicConfig;
import java.time.Duration;

/** Where providers publish their snapshots. Safe to call from any thread; never blocks on merging. */
@FunctionalInterface
public interface ConfigurationSink {

    void publish(String provider, DynamicConfig config);

    /**
     * A provider read its source successfully, whether or not the result changed (the API's "last successful
     * refresh", the refresh metrics). Called before {@link #publish} of that result.
     */
    default void refreshed(String provider, Duration took) {
    }

    /** A provider could not read its source; {@code reason} is shown by the API, so it must hold no secret. */
    default void refreshFailed(String provider, Duration took, String reason) {
    }
}
