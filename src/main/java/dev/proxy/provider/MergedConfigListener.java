package dev.proxy.provider;

import dev.proxy.config.dynamic.MergedConfig;

/**
 * Receives every new merged configuration (the data plane implements this as a bean). Called on the
 * configuration watcher's single thread, never on a request thread, and never twice with equal configurations;
 * a slow listener delays the next merge, not requests.
 */
@FunctionalInterface
public interface MergedConfigListener {

    void onMergedConfig(MergedConfig merged);
}
