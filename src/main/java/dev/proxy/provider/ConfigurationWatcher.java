package dev.proxy.provider;

import dev.proxy.config.dynamic.ConfigurationMerger;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.dynamic.ResourceError;
import dev.proxy.config.install.InstallConfig;
import io.micronaut.core.annotation.Nullable;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink every provider publishes to. Keeps each provider's latest snapshot, ignores a snapshot equal to that
 * provider's previous one, throttles each provider, merges all latest snapshots and hands the result to the
 * {@link MergedConfigListener listeners}.
 *
 * <p>Throttling ({@code providers.providersThrottleDuration}, 2s by default, 0 disables it) is per provider: a change
 * is applied at once unless one from the same provider was applied less than the throttle duration ago; changes
 * within that window are coalesced and the latest is applied when the window ends (which opens a new window). So a
 * flapping source costs one merge per window, and a quiet provider is never delayed by a busy one.
 *
 * <p>Everything after {@link #publish} runs on the watcher's own single thread: merging (and the listeners'
 * compilation) never runs on a provider's thread or a request thread, and needs no locks.
 */
@Singleton
public class ConfigurationWatcher implements ConfigurationSink {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationWatcher.class);

    private final Duration throttle;
    private final SerialScheduler scheduler;
    private final List<MergedConfigListener> listeners;
    private final ProviderActivity activity;

    // Touched only on the scheduler's thread.
    private final Map<String, ProviderState> providers = new HashMap<>();
    private MergedConfig lastMerged;

    private volatile MergedConfig current = MergedConfig.EMPTY;

    @Inject
    public ConfigurationWatcher(InstallConfig config, List<MergedConfigListener> listeners, ProviderActivity activity) {
        this(config.providers().providersThrottleDuration(), new ThreadScheduler("proxy-configuration"), listeners,
                activity);
    }

    public ConfigurationWatcher(InstallConfig config, List<MergedConfigListener> listeners) {
        this(config, listeners, new ProviderActivity());
    }

    ConfigurationWatcher(Duration throttle, SerialScheduler scheduler, List<MergedConfigListener> listeners) {
        this(throttle, scheduler, listeners, new ProviderActivity());
    }

    ConfigurationWatcher(Duration throttle, SerialScheduler scheduler, List<MergedConfigListener> listeners,
                         ProviderActivity activity) {
        this.throttle = throttle;
        this.scheduler = scheduler;
        this.listeners = List.copyOf(listeners);
        this.activity = activity;
    }

    @Override
    public void publish(String provider, DynamicConfig config) {
        activity.published(provider);
        scheduler.execute(() -> received(provider, config));
    }

    @Override
    public void refreshed(String provider, Duration took) {
        activity.refreshed(provider, took);
    }

    @Override
    public void refreshFailed(String provider, Duration took, String reason) {
        activity.failed(provider, took, reason);
    }

    /** What the providers have been doing. */
    public ProviderActivity activity() {
        return activity;
    }

    /** The latest merged configuration (empty until a provider has published). */
    public MergedConfig current() {
        return current;
    }

    @PreDestroy
    public void close() {
        scheduler.close();
    }

    private void received(String provider, DynamicConfig config) {
        ProviderState state = providers.computeIfAbsent(provider, p -> new ProviderState());
        DynamicConfig latest = state.pending != null ? state.pending : state.applied;
        if (config.equals(latest)) {
            LOG.debug("provider {}: configuration unchanged", provider);
            return;
        }
        if (state.throttled) {
            LOG.debug("provider {}: change within the throttle window, applied when it ends", provider);
            state.pending = config;
            return;
        }
        apply(provider, state, config);
    }

    private void apply(String provider, ProviderState state, DynamicConfig config) {
        state.applied = config;
        state.pending = null;
        if (!throttle.isZero()) {
            state.throttled = true;
            scheduler.schedule(throttle, () -> windowEnded(provider, state));
        }
        mergeAndNotify(provider);
    }

    private void windowEnded(String provider, ProviderState state) {
        state.throttled = false;
        DynamicConfig pending = state.pending;
        state.pending = null;
        // The latest change may have gone back to what is applied: then there is nothing to do.
        if (pending != null && !pending.equals(state.applied)) {
            apply(provider, state, pending);
        }
    }

    private void mergeAndNotify(String changedProvider) {
        Map<String, DynamicConfig> latest = new LinkedHashMap<>();
        providers.forEach((name, state) -> {
            if (state.applied != null) {
                latest.put(name, state.applied);
            }
        });
        MergedConfig merged = ConfigurationMerger.merge(latest);
        if (merged.equals(lastMerged)) {
            LOG.debug("provider {}: merged configuration unchanged", changedProvider);
            return;
        }
        List<ResourceError> before = lastMerged == null ? List.of() : lastMerged.errors();
        lastMerged = merged;
        current = merged;
        LOG.info("configuration from provider {} applied: {} routers, {} services, {} middlewares", changedProvider,
                merged.routers().size(), merged.services().size(), merged.middlewares().size());
        // Each problem is logged when it appears, not again on every later change of any provider.
        merged.errors().stream().filter(e -> !before.contains(e)).forEach(e -> LOG.error("{} left out: {}",
                e.kind().word() + " " + e.qualifiedName(), e.message()));
        for (MergedConfigListener listener : listeners) {
            try {
                listener.onMergedConfig(merged);
            } catch (RuntimeException e) {
                LOG.error("applying the merged configuration failed in {}", listener.getClass().getSimpleName(), e);
            }
        }
    }

    /** One provider's snapshots; touched only on the scheduler's thread. */
    private static final class ProviderState {
        @Nullable DynamicConfig applied;
        @Nullable DynamicConfig pending;
        boolean throttled;
    }
}
