package dev.proxy.provider.registrycatalog;

import static dev.proxy.provider.registrycatalog.Catalog.item;
import static dev.proxy.provider.registrycatalog.Catalog.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.provider.Backoff;
import dev.proxy.server.forward.BackendTls;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The watch loop on a scripted client: what wakes a refresh, what rebuilds, and how indexes move. */
class CatalogSourceTest {

    private final ScriptedClient client = new ScriptedClient();
    private final List<DynamicConfig> published = new CopyOnWriteArrayList<>();
    private final CatalogSource source = new CatalogSource("registrycatalog",
            options("--watch=true", "--refreshInterval=1h"), client, new BackendTls(),
            new Backoff(Duration.ofMillis(1), 1, 0, Duration.ofMillis(1)));

    @AfterEach
    void stop() {
        source.stop();
    }

    @Test
    void aQueryReturningWithoutAChangeDoesNotRead() {
        client.catalog.put("web", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of())));
        await().until(() -> client.serviceIndexes.contains(5L));
        await().until(() -> source.builds() == 1);
        long reads = client.reads.get();

        client.services.add(indexed(5, Map.of("web", List.of())));   // wait time over, same index
        client.services.add(indexed(5, Map.of("web", List.of())));
        await().until(() -> client.serviceIndexes.size() == 4);

        assertThat(client.reads.get()).isEqualTo(reads);
        assertThat(source.builds()).isEqualTo(1);
    }

    @Test
    void aNewIndexWithTheSameServicesReadsButDoesNotRebuildWhenNothingChanged() {
        client.catalog.put("web", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of())));
        await().until(() -> source.builds() == 1 && client.serviceIndexes.contains(5L));
        long reads = client.reads.get();

        // A second instance with the same tags leaves the service → tags map equal: only the index tells.
        client.services.add(indexed(6, Map.of("web", List.of())));
        await().until(() -> client.reads.get() > reads);
        assertThat(source.builds()).isEqualTo(1);

        client.instances.put("web", 2);
        client.services.add(indexed(7, Map.of("web", List.of())));
        await().until(() -> source.builds() == 2);
        assertThat(published.get(published.size() - 1).http().services().get("web").loadBalancer().servers()).hasSize(2);
    }

    @Test
    void aChangeRebuildsAtOnce() {
        client.catalog.put("web", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of())));
        await().until(() -> source.builds() == 1);

        client.catalog.put("api", List.of());
        client.services.add(indexed(9, Map.of("web", List.of(), "api", List.of())));

        await().until(() -> published.stream().anyMatch(c -> c.http().routers().containsKey("api")));
        assertThat(source.builds()).isEqualTo(2);
    }

    @Test
    void anIndexGoingBackwardsStartsOverFromZero() {
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(50, Map.of()));
        await().until(() -> client.serviceIndexes.contains(50L));

        client.services.add(indexed(3, Map.of()));
        client.services.add(indexed(4, Map.of()));

        await().until(() -> client.serviceIndexes.size() >= 4);
        assertThat(client.serviceIndexes).startsWith(0L, 50L, 0L, 4L);
    }

    @Test
    void aFailedQueryStartsOverFromZeroAndIsReported() {
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(50, Map.of()));
        await().until(() -> client.serviceIndexes.contains(50L));

        client.failCatalog = true;
        client.services.add(ScriptedClient.FAILURE);
        await().until(() -> source.failedRefreshes() > 0);
        client.failCatalog = false;

        await().until(() -> client.serviceIndexes.size() >= 3);
        assertThat(client.serviceIndexes).startsWith(0L, 50L, 0L);
    }

    private static CatalogClient.Indexed<Map<String, List<String>>> indexed(long index, Map<String, List<String>> v) {
        return new CatalogClient.Indexed<>(index, v, false);
    }

    /**
     * Blocking queries (from the watch threads) take scripted answers; full reads see {@link #catalog};
     * {@link #reads} counts the reads of a refresh (catalog and instances).
     */
    private static final class ScriptedClient implements CatalogClient {
        static final Indexed<Map<String, List<String>>> FAILURE = new Indexed<>(-1, Map.of(), false);

        final Map<String, List<String>> catalog = new ConcurrentHashMap<>();
        final BlockingQueue<Indexed<Map<String, List<String>>>> services = new LinkedBlockingQueue<>();
        final List<Long> serviceIndexes = new CopyOnWriteArrayList<>();
        final AtomicInteger reads = new AtomicInteger();
        final Map<String, Integer> instances = new ConcurrentHashMap<>();
        volatile boolean failCatalog;

        @Override
        public Indexed<Map<String, List<String>>> services(long index) {
            if (!Thread.currentThread().getName().contains("watch")) {
                if (failCatalog) {
                    throw new ConsulException("GET /v1/catalog/services failed: connection refused", 0);
                }
                reads.incrementAndGet();
                return new Indexed<>(1, Map.copyOf(catalog), false);
            }
            serviceIndexes.add(index);
            try {
                Indexed<Map<String, List<String>>> next = services.take();
                if (next == FAILURE) {
                    throw new ConsulException("GET /v1/catalog/services failed: connection refused", 0);
                }
                return next;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConsulException("interrupted", e);
            }
        }

        @Override
        public Indexed<List<CatalogItem>> instances(String service, boolean connect, String tag) {
            reads.incrementAndGet();
            List<CatalogItem> items = new java.util.ArrayList<>();
            for (int n = 1; n <= instances.getOrDefault(service, 1); n++) {
                items.add(item(service, n));
            }
            return new Indexed<>(1, items, false);
        }

        @Override
        public Indexed<List<CheckState>> checks(long index) {
            if (index > 0) {
                try {
                    new java.util.concurrent.CountDownLatch(1).await(); // no health changes here: a blocking query that never returns
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ConsulException("interrupted", e);
                }
            }
            return new Indexed<>(1, List.of(), false);
        }

        @Override
        public CaRoots connectRoots() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Leaf connectLeaf(String service) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void register(Map<String, Object> registration) {
        }

        @Override
        public void deregister(String serviceId) {
        }

        @Override
        public void close() {
        }
    }
}
