package dev.proxy.provider.registrycatalog;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.provider.Backoff;
import dev.proxy.provider.ConfigurationSink;
import dev.proxy.provider.PollingSupervisor;
import dev.proxy.provider.Provider;
import dev.proxy.server.forward.BackendTls;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code registryCatalog} provider instance: the catalog of one Consul namespace (or of the agent's default),
 * published as {@code registrycatalog} or {@code registrycatalog-<namespace>}.
 *
 * <p><b>Polling</b> ({@code watch: false}): a {@link PollingSupervisor} refreshes every {@code refreshInterval}.
 * <b>Watching</b> ({@code watch: true}): two threads hold blocking queries on {@code /v1/catalog/services} and
 * {@code /v1/health/state/any}; when one returns with a new index <em>and</em> a different result, it notes which
 * services changed ({@link CatalogChanges}) and wakes the refresh thread (wake-ups coalesce in a one-slot queue),
 * which reads the instances of those services only, so a registration or a check change is routable within
 * milliseconds whatever the size of the catalog; the other services keep the instances of their last read. A query
 * that returns without a change wakes nothing. Indexes are unsigned 64-bit numbers. An index that goes backwards
 * (Consul restarted or a leader changed), an answer without an index and a failed query restart that watch from
 * index 0 after a backoff pause (so a broken or hostile agent cannot make the loop spin); a failed query also wakes
 * the refresh (reading everything) so that the failure is reported. Every {@code refreshInterval} without a wake-up the refresh reads every service,
 * as a safety net and to pick up renewed Connect certificates; so does the refresh after a failed one. Connect
 * services are read on every wake-up: their instances are other services (sidecar proxies) that the watches name.
 *
 * <p>A refresh that reads the same items (and certificates) as the previous one does not rebuild. A failed refresh
 * publishes nothing (the last good configuration stays) and is retried with backoff by the supervisor, which logs
 * once per state change.
 */
public final class CatalogSource implements Provider {

    private static final Logger LOG = LoggerFactory.getLogger(CatalogSource.class);
    private static final int MAX_LOGGED_SKIPS = 20;
    private static final int READERS = 8;

    private final String name;
    private final RegistryCatalogConfig config;
    private final CatalogSettings settings;
    private final CatalogClient client;
    private final CatalogConfigBuilder builder;
    private final BackendTls backendTls;
    private final Backoff watchBackoff;
    private final BlockingQueue<Boolean> wakeUps = new ArrayBlockingQueue<>(1);
    private final CatalogChanges changes = new CatalogChanges();
    private final List<Thread> watchers = new ArrayList<>();
    /** Reads services' instances in parallel: a large catalog is one call per service. */
    private final ExecutorService reader = Executors.newFixedThreadPool(READERS, r -> {
        Thread t = new Thread(r, "proxy-provider-catalog-reader");
        t.setDaemon(true);
        return t;
    });

    private volatile boolean stopped;
    /** The services watch's latest answer, while that watch is healthy: a refresh need not read it again. */
    private volatile CatalogClient.@Nullable Indexed<Map<String, List<String>>> watchedServices;
    private @Nullable PollingSupervisor supervisor;
    private volatile List<Explanation> explanations = List.of();
    private volatile long builds;
    private volatile long failedRefreshes;

    // Touched only on the supervisor's thread.
    private boolean refreshNow = true;
    private @Nullable Object lastInput;
    private DynamicConfig lastConfig = DynamicConfig.EMPTY;
    private @Nullable ConnectTls connect;
    private @Nullable String connectProblem;
    private Set<String> loggedProblems = Set.of();
    private Set<String> loggedSkips = Set.of();
    private boolean aclFilteredWarned;
    /** Each routable service's last read, by name: a wake-up reads again only the services that changed. */
    private Map<String, Read> reads = new HashMap<>();

    /** One service's instances as last read, and whether through its Connect endpoint. */
    private record Read(boolean connect, CatalogClient.Indexed<List<CatalogItem>> instances) {
    }

    /**
     * @param name       {@code registrycatalog} or {@code registrycatalog-<namespace>}
     * @param backendTls where the TLS clients of Connect services go
     */
    public CatalogSource(String name, RegistryCatalogConfig config, CatalogClient client, BackendTls backendTls) {
        this(name, config, client, backendTls, Backoff.DEFAULT);
    }

    CatalogSource(String name, RegistryCatalogConfig config, CatalogClient client, BackendTls backendTls,
                  Backoff watchBackoff) {
        this.name = name;
        this.config = config;
        this.settings = CatalogSettings.of(config);
        this.client = client;
        this.builder = new CatalogConfigBuilder(name, settings);
        this.backendTls = backendTls;
        this.watchBackoff = watchBackoff;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized void start(ConfigurationSink sink) {
        if (stopped || supervisor != null) {
            return;
        }
        if (config.watch()) {
            // The supervisor's "interval" is only the pause between two waits for a change.
            supervisor = new PollingSupervisor(name, Duration.ofNanos(1), this::waitAndRefresh, sink);
            // A new instance of a known service leaves the service → tags map as it was: any new catalog index
            // means a read. Checks change their output all the time: only a different status means a read.
            watchers.add(watcher("services", index -> {
                try {
                    CatalogClient.Indexed<Map<String, List<String>>> answer = client.services(index);
                    watchedServices = answer;
                    return answer;
                } catch (RuntimeException e) {
                    watchedServices = null;
                    throw e;
                }
            }, CatalogSource::servicesChanged));
            watchers.add(watcher("checks", client::checks, CatalogSource::checksChanged));
        } else {
            supervisor = new PollingSupervisor(name, config.refreshInterval(), this::refresh, sink);
        }
        LOG.info("provider {}: reading the Consul catalog {}", name, config.watch() ? "with blocking queries (watch)"
                : "every " + config.refreshInterval().toMillis() + " ms");
        supervisor.start();
        watchers.forEach(Thread::start);
    }

    @Override
    public synchronized void stop() {
        stopped = true;
        if (supervisor != null) {
            supervisor.stop();
        }
        watchers.forEach(Thread::interrupt);
        reader.shutdownNow();
        client.close(); // ends blocking queries in flight
    }

    /** Why each catalog service or instance is (not) routed, as of the last successful refresh. */
    public List<Explanation> explain() {
        return explanations;
    }

    /** How many times the configuration was rebuilt (a refresh that read nothing new does not count). */
    long builds() {
        return builds;
    }

    /** How many refreshes failed (Consul unreachable, refused, garbage). */
    long failedRefreshes() {
        return failedRefreshes;
    }

    private DynamicConfig waitAndRefresh() throws Exception {
        if (!refreshNow && wakeUps.poll(config.refreshInterval().toNanos(), TimeUnit.NANOSECONDS) == null) {
            changes.everything(); // the periodic safety net
        }
        wakeUps.clear();
        refreshNow = true; // until a refresh succeeds, retries refresh without waiting
        // Taken after the clear: a change noted from here on also wakes the next wait, so none is lost.
        DynamicConfig c = refresh(changes.take());
        refreshNow = false;
        return c;
    }

    private void changed() {
        wakeUps.offer(Boolean.TRUE);
    }

    /**
     * What a watch does with a new answer: note the services it changed in {@code changes}; true to wake the refresh.
     * {@code previous} is null for the watch's first answer (or the first after a failure).
     */
    @FunctionalInterface
    private interface Reaction {
        boolean changed(CatalogChanges changes, @Nullable Object previous, Object next, boolean newIndex);
    }

    /** A new service name, a removed one or other tags name the service; the same services at a new index do not. */
    @SuppressWarnings("unchecked")
    private static boolean servicesChanged(CatalogChanges changes, @Nullable Object previous, Object next,
                                           boolean newIndex) {
        Set<String> changed = previous == null ? null
                : CatalogChanges.diffServices((Map<String, List<String>>) previous, (Map<String, List<String>>) next);
        if (changed != null) {
            changes.services(changed);
        } else if (previous == null || newIndex) {
            // An instance added, removed or moved within a service whose tags stayed the same: Consul does not say
            // which service (its index is the services table's), so everything is read.
            changes.everything();
        } else {
            return false;
        }
        return true;
    }

    /** Checks are compared on node, id, service and status only: their output changes all the time. */
    @SuppressWarnings("unchecked")
    private static boolean checksChanged(CatalogChanges changes, @Nullable Object previous, Object next,
                                         boolean newIndex) {
        if (next.equals(previous)) {
            return false;
        }
        Set<String> changed = previous == null ? null : CatalogChanges.diffChecks(
                (List<CatalogClient.CheckState>) previous, (List<CatalogClient.CheckState>) next);
        if (changed == null) {
            changes.everything();
        } else {
            changes.services(changed);
        }
        return true;
    }

    private Thread watcher(String what, LongFunction<CatalogClient.Indexed<?>> query, Reaction reaction) {
        Thread t = new Thread(() -> watch(what, query, reaction), "proxy-provider-" + name + "-watch-" + what);
        t.setDaemon(true);
        return t;
    }

    private void watch(String what, LongFunction<CatalogClient.Indexed<?>> query, Reaction reaction) {
        long index = 0;
        Object last = null;
        int failures = 0;
        while (!stopped) {
            CatalogClient.Indexed<?> result;
            try {
                result = query.apply(index);
            } catch (RuntimeException e) {
                if (stopped) {
                    return;
                }
                LOG.debug("provider {}: watch of {} failed: {}", name, what, e.getMessage());
                // A restarted agent starts its indexes again from 1: start over rather than block on a stale index.
                index = 0;
                last = null;
                changes.everything();
                changed();
                LockSupport.parkNanos(watchBackoff.delay(failures++, ThreadLocalRandom.current().nextDouble()).toNanos());
                continue;
            }
            long next = result.index();
            boolean newIndex = next != index;
            // Consul's rules for blocking queries: indexes are unsigned 64-bit; one that goes backwards resets to 0.
            boolean backwards = Long.compareUnsigned(next, index) < 0;
            if (backwards) {
                changes.everything();
            }
            if (backwards || reaction.changed(changes, last, result.value(), newIndex)) {
                changed();
            }
            last = result.value();
            if (next == 0 || backwards) {
                // Without an index (a blocking endpoint always sends one) or after a reset the next query does not
                // block: pause with backoff, so that an agent answering like that cannot make this loop spin.
                LOG.debug("provider {}: watch of {}: index {} after {}, starting over", name, what,
                        Long.toUnsignedString(next), Long.toUnsignedString(index));
                index = 0;
                LockSupport.parkNanos(watchBackoff.delay(failures++, ThreadLocalRandom.current().nextDouble()).toNanos());
                continue;
            }
            failures = 0;
            index = next;
        }
    }

    /** One full read of the catalog, then a build unless nothing changed. */
    DynamicConfig refresh() {
        return refresh(null);
    }

    /** @param changed the services to read again (the others as last read), or null to read every service */
    private DynamicConfig refresh(@Nullable Set<String> changed) {
        try {
            return readAndBuild(changed);
        } catch (RuntimeException e) {
            failedRefreshes++;
            changes.everything(); // what this refresh was to read is not lost: the retry reads everything
            throw e;
        }
    }

    private DynamicConfig readAndBuild(@Nullable Set<String> changed) {
        List<Explanation> skipped = new ArrayList<>();
        List<CatalogItem> items = fetch(skipped, changed);
        ConnectTls tls = config.connectAware() ? connectTls() : null;
        Object input = List.of(items, skipped, tls == null ? "" : tls.leafChain(), tls == null ? "" : tls.roots());
        if (input.equals(lastInput)) {
            return lastConfig;
        }
        CatalogConfigBuilder.Built built = builder.build(items, tls == null ? null : tls.trustDomain());
        builds++;
        Set<String> keep = new HashSet<>();
        built.connectIdentities().forEach((service, spiffeId) -> {
            String qualified = service + "@" + name;
            backendTls.put(qualified, Objects.requireNonNull(tls).context(spiffeId));
            keep.add(qualified);
        });
        backendTls.retain(name, keep);
        List<Explanation> all = new ArrayList<>(skipped);
        all.addAll(built.explanations());
        all.sort(java.util.Comparator.comparing(Explanation::service).thenComparing(Explanation::instance));
        explanations = List.copyOf(all);
        log(built, all);
        lastInput = input;
        lastConfig = built.config();
        return lastConfig;
    }

    /**
     * The catalog's instances that may be routed, each service read from its health endpoint (or, when
     * {@code changed} does not name it, as last read); services that cannot be routed whatever their instances (from
     * the tags of all instances) go to {@code skipped} without being read.
     *
     * @param changed the services to read again, or null for every one
     */
    List<CatalogItem> fetch(List<Explanation> skipped, @Nullable Set<String> changed) {
        CatalogClient.Indexed<Map<String, List<String>>> watched = watchedServices;
        CatalogClient.Indexed<Map<String, List<String>>> services = watched != null ? watched : client.services(0);
        boolean filtered = services.filteredByAcls();
        List<CatalogItem> items = new ArrayList<>();
        Map<String, Read> next = new HashMap<>();
        List<Map.Entry<String, Future<Read>>> pending = new ArrayList<>();
        for (Map.Entry<String, List<String>> service : new TreeMap<>(services.value()).entrySet()) {
            String serviceName = service.getKey();
            List<String> union = service.getValue();
            Map<String, String> labels = settings.labels(union);
            boolean connect;
            try {
                connect = settings.connect(labels);
            } catch (IllegalArgumentException e) {
                connect = settings.connectByDefault(); // instances with a bad tag are explained one by one
            }
            String reason = serviceSkipReason(union, labels, connect);
            if (reason != null) {
                skipped.add(Explanation.skipped(name, serviceName, "", reason));
                continue;
            }
            boolean viaConnect = connect;
            Read last = reads.get(serviceName);
            if (changed != null && !connect && last != null && !last.connect() && !changed.contains(serviceName)) {
                pending.add(Map.entry(serviceName, CompletableFuture.completedFuture(last)));
            } else {
                pending.add(Map.entry(serviceName, reader.submit(() ->
                        new Read(viaConnect, client.instances(serviceName, viaConnect, "")))));
            }
        }
        for (Map.Entry<String, Future<Read>> read : pending) {
            Read done = result(read.getValue());
            next.put(read.getKey(), done);
            CatalogClient.Indexed<List<CatalogItem>> instances = done.instances();
            filtered |= instances.filteredByAcls();
            if (instances.value().isEmpty()) {
                skipped.add(Explanation.skipped(name, read.getKey(), "", "no instances that can be reached"
                        + " (a Connect service needs a sidecar proxy or a connect-native instance)"));
            }
            items.addAll(instances.value());
        }
        reads = next; // only once every read succeeded: a failed refresh keeps the reads it started from
        if (filtered && !aclFilteredWarned) {
            LOG.warn("provider {}: Consul hid catalog entries from this token (X-Consul-Results-Filtered-By-ACLs): "
                    + "services and nodes it may not read are not routed; the token needs service:read and node:read", name);
        }
        aclFilteredWarned = filtered;
        return items;
    }

    private static <T> T result(Future<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new ConsulException(e.getCause().toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConsulException("interrupted", e);
        }
    }

    private @Nullable String serviceSkipReason(List<String> union, Map<String, String> labels, boolean connect) {
        if (!settings.exposedByDefault() && union.stream().noneMatch(t -> t.equalsIgnoreCase(settings.prefix() + ".enable=true"))) {
            // Reworded from the union of the instances' tags: no instance carries the enable tag.
            Map<String, String> withoutEnable = new java.util.LinkedHashMap<>(labels);
            withoutEnable.keySet().removeIf(k -> k.equalsIgnoreCase(settings.prefix() + ".enable"));
            return settings.notEnabled(withoutEnable);
        }
        if (connect && !settings.connectAware()) {
            return "a Connect service (tag " + settings.prefix() + ".registrycatalog.connect or connectByDefault), "
                    + "but connectAware is false";
        }
        if (settings.constraintsMonotone()) {
            return settings.constraintFails(union);
        }
        return null;
    }

    /** The Connect CA and the proxy's leaf, or null (logged once) while they cannot be read. */
    private @Nullable ConnectTls connectTls() {
        try {
            ConnectTls fresh = ConnectTls.of(client.connectRoots(), client.connectLeaf(config.serviceName()));
            if (connect == null || !connect.sameMaterial(fresh)) {
                connect = fresh;
                LOG.info("provider {}: Connect CA roots and the leaf certificate of {} loaded (trust domain {})",
                        name, config.serviceName(), fresh.trustDomain());
            }
            connectProblem = null;
            return connect;
        } catch (ConsulException | java.security.GeneralSecurityException e) {
            String problem = e.getMessage();
            if (!Objects.equals(problem, connectProblem)) {
                LOG.warn("provider {}: Connect certificates unavailable{}: {}", name,
                        connect == null ? ", Connect services are not routed yet" : ", keeping the previous ones", problem);
                connectProblem = problem;
            }
            return connect;
        }
    }

    private void log(CatalogConfigBuilder.Built built, List<Explanation> all) {
        Set<String> problems = new HashSet<>(built.problems());
        for (String p : built.problems()) {
            if (!loggedProblems.contains(p)) {
                LOG.warn("provider {}: {}", name, p);
            }
        }
        loggedProblems = problems;
        long exposed = all.stream().filter(Explanation::exposed).count();
        Set<String> skips = new HashSet<>();
        int logged = 0;
        for (Explanation e : all) {
            if (e.exposed()) {
                continue;
            }
            String line = e.toString();
            skips.add(line);
            if (!loggedSkips.contains(line) && logged++ < MAX_LOGGED_SKIPS) {
                LOG.info("provider {}: {}", name, line);
            }
        }
        loggedSkips = skips;
        var http = built.config().http();
        LOG.info("provider {}: {} catalog entries, {} exposed, {} skipped; {} routers, {} services", name, all.size(),
                exposed, all.size() - exposed, http.routers().size(), http.services().size());
    }
}
