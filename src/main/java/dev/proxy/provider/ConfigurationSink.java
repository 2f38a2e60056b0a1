package dev.proxy.provider;

import dev.proxy.config.dynamic.DynamicConfig;

/** Where providers publish their snapshots. Safe to call from any thread; never blocks on merging. */
@FunctionalInterface
public interface ConfigurationSink {

    void publish(String provider, DynamicConfig config);
}
