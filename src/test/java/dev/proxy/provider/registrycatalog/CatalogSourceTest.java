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
    void aNewServiceIsTheOnlyOneRead() {
        client.catalog.put("web", List.of());
        client.catalog.put("api", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of(), "api", List.of())));
        await().until(() -> source.builds() == 1 && client.serviceIndexes.contains(5L));
        awaitQuiet();
        client.serviceReads.clear();

        client.catalog.put("db", List.of());
        client.services.add(indexed(6, Map.of("web", List.of(), "api", List.of(), "db", List.of())));

        await().until(() -> published.stream().anyMatch(c -> c.http().routers().containsKey("db")));
        assertThat(client.serviceReads).containsExactly("db");
        assertThat(published.get(published.size() - 1).http().routers()).containsOnlyKeys("web", "api", "db");
    }

    @Test
    void otherTagsReadThatServiceAndARemovedServiceIsDroppedWithoutAnyRead() {
        client.catalog.put("web", List.of());
        client.catalog.put("api", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of(), "api", List.of())));
        await().until(() -> source.builds() == 1 && client.serviceIndexes.contains(5L));
        awaitQuiet();
        client.serviceReads.clear();

        client.services.add(indexed(6, Map.of("web", List.of("v2"), "api", List.of())));
        await().until(() -> client.serviceReads.contains("web"));
        client.services.add(indexed(7, Map.of("web", List.of("v2"))));

        await().until(() -> published.stream().anyMatch(c -> !c.http().routers().containsKey("api")));
        assertThat(client.serviceReads).containsExactly("web");
    }

    @Test
    void aCheckChangeReadsItsServiceOnlyAndANodeCheckReadsEverything() {
        client.catalog.put("web", List.of());
        client.catalog.put("api", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of(), "api", List.of())));
        CatalogClient.CheckState serf = new CatalogClient.CheckState("n1", "serfHealth", "", "", "passing");
        CatalogClient.CheckState web = new CatalogClient.CheckState("n1", "service:web-1", "web-1", "web", "passing");
        client.checks.add(new CatalogClient.Indexed<>(3, List.of(serf, web), false));
        await().until(() -> source.builds() == 1 && client.checkIndexes.contains(3L));
        awaitQuiet();
        client.serviceReads.clear();

        client.checks.add(new CatalogClient.Indexed<>(4, List.of(serf,
                new CatalogClient.CheckState("n1", "service:web-1", "web-1", "web", "critical")), false));
        await().until(() -> client.serviceReads.contains("web"));
        awaitQuiet();
        assertThat(client.serviceReads).containsExactly("web");

        client.checks.add(new CatalogClient.Indexed<>(5, List.of(
                new CatalogClient.CheckState("n1", "serfHealth", "", "", "critical"), web), false));
        await().until(() -> client.serviceReads.size() >= 3);
        awaitQuiet();
        assertThat(client.serviceReads).containsExactlyInAnyOrder("web", "web", "api");
    }

    @Test
    void aFailedRefreshIsRetriedWithAReadOfEverything() {
        client.catalog.put("web", List.of());
        client.catalog.put("api", List.of());
        source.start((name, config) -> published.add(config));
        client.services.add(indexed(5, Map.of("web", List.of(), "api", List.of())));
        await().until(() -> source.builds() == 1 && client.serviceIndexes.contains(5L));
        awaitQuiet();
        client.serviceReads.clear();

        client.failInstances = true;
        client.catalog.put("db", List.of());
        client.services.add(indexed(6, Map.of("web", List.of(), "api", List.of(), "db", List.of())));
        await().until(() -> source.failedRefreshes() > 0);
        client.serviceReads.clear();
        client.failInstances = false;

        await().until(() -> published.stream().anyMatch(c -> c.http().routers().containsKey("db")));
        // Without it, the retry would read db only: the change that named it was taken by the failed refresh.
        assertThat(client.serviceReads).contains("web", "api", "db");
    }

    /** Until the refresh thread has been idle a while: the reads of the start-up (first answers of both watches). */
    private void awaitQuiet() {
        int[] last = {-1};
        await().pollInterval(Duration.ofMillis(100)).until(() -> {
            int now = client.reads.get();
            boolean quiet = now == last[0];
            last[0] = now;
            return quiet;
        });
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
        /** The services whose instances were read, in order. */
        final List<String> serviceReads = new CopyOnWriteArrayList<>();
        final Map<String, Integer> instances = new ConcurrentHashMap<>();
        final BlockingQueue<Indexed<List<CheckState>>> checks = new LinkedBlockingQueue<>();
        final List<Long> checkIndexes = new CopyOnWriteArrayList<>();
        volatile boolean failCatalog;
        volatile boolean failInstances;

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
            serviceReads.add(service);
            if (failInstances) {
                throw new ConsulException("GET /v1/health/service/" + service + " failed: connection refused", 0);
            }
            List<CatalogItem> items = new java.util.ArrayList<>();
            for (int n = 1; n <= instances.getOrDefault(service, 1); n++) {
                items.add(item(service, n));
            }
            return new Indexed<>(1, items, false);
        }

        @Override
        public Indexed<List<CheckState>> checks(long index) {
            checkIndexes.add(index);
            if (index == 0) {
                return new Indexed<>(1, List.of(), false);
            }
            try {
                return checks.take(); // a blocking query returns with the next scripted answer, or never
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConsulException("interrupted", e);
            }
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
