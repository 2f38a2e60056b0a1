package dev.proxy.provider;

import dev.proxy.config.dynamic.DynamicConfig;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sink that keeps everything published to it, in order. */
public final class RecordingSink implements ConfigurationSink {

    public record Published(String provider, DynamicConfig config) {
    }

    private final List<Published> published = new CopyOnWriteArrayList<>();

    @Override
    public void publish(String provider, DynamicConfig config) {
        published.add(new Published(provider, config));
    }

    public List<DynamicConfig> configs() {
        return published.stream().map(Published::config).toList();
    }

    public int count() {
        return published.size();
    }

    public DynamicConfig latest() {
        return published.get(published.size() - 1).config();
    }
}
