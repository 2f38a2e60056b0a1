package dev.proxy.provider;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every enabled provider (each provider bean is present only when its {@code providers.<name>} section is).
 * Started once the entry points are bound, so that the first configuration meets a running server; stopped when
 * the context closes.
 */
@Singleton
public class Providers {

    private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

    private final List<Provider> providers;
    private final ConfigurationWatcher watcher;
    private final List<Provider> started = new ArrayList<>();
    private boolean startCalled;

    public Providers(List<Provider> providers, ConfigurationWatcher watcher) {
        this.providers = List.copyOf(providers);
        this.watcher = watcher;
    }

    public synchronized void start() {
        if (startCalled) {
            return;
        }
        startCalled = true;
        if (providers.isEmpty()) {
            LOG.info("no providers enabled: only internal routes are served");
        }
        for (Provider p : providers) {
            LOG.info("starting provider {}", p.name());
            try {
                p.start(watcher);
                started.add(p);
            } catch (RuntimeException e) {
                // One provider failing to start must not keep the others' routes away.
                LOG.error("provider {} failed to start: {}", p.name(), e.getMessage(), e);
            }
        }
    }

    public List<String> names() {
        return providers.stream().map(Provider::name).toList();
    }

    @PreDestroy
    public synchronized void stop() {
        for (Provider p : started) {
            try {
                p.stop();
            } catch (RuntimeException e) {
                LOG.warn("provider {} failed to stop cleanly: {}", p.name(), e.toString());
            }
        }
        started.clear();
    }
}
