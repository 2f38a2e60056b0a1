package dev.proxy.provider.clustertasks;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.ConfigurationSink;
import dev.proxy.provider.PollingSupervisor;
import dev.proxy.provider.Explainable;
import dev.proxy.provider.ExplainedItem;
import dev.proxy.provider.Provider;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code clusterTasks} provider: every {@code refreshSeconds}, the running tasks of the watched ECS clusters
 * become routers and services through their containers' docker labels (see {@link TaskFetcher} for the calls and
 * caches, {@link TaskConfigBuilder} for the rules).
 *
 * <p>A refresh is all or nothing: if any AWS call fails (throttled, denied, unreachable) nothing is published and the
 * last good configuration stays; the {@link PollingSupervisor} retries with backoff and logs the failure once, with
 * the operation (a throttled or denied one by name: it is also the IAM action). The AWS clients are created on the
 * first refresh, on the polling thread, so a missing region or credentials never delay the start.
 *
 * <p>Resources left out (invalid labels, conflicting definitions) are logged once when they appear, not at every
 * refresh; {@link #explain()} tells, for every task container of the last refresh, whether it is exposed or why not.
 */
@Singleton
@Requires(condition = ClusterTasksEnabled.class)
public class ClusterTasksProvider implements Provider, Explainable {

    public static final String NAME = "clustertasks";

    private static final Logger LOG = LoggerFactory.getLogger(ClusterTasksProvider.class);

    private final ClusterTasksConfig config;
    private final Supplier<EcsApi> api;
    private final TaskConfigBuilder builder;

    private @Nullable PollingSupervisor supervisor;
    private boolean started;
    private volatile List<Explanation> explanations = List.of();

    // Touched only on the polling thread.
    private volatile @Nullable TaskFetcher fetcher;
    private Set<String> loggedErrors = Set.of();
    private Map<String, Explanation> lastExplained = Map.of();

    @Inject
    public ClusterTasksProvider(InstallConfig install, BeanProvider<EcsApi> api) {
        this(Objects.requireNonNull(install.providers().clusterTasks(), "providers.clusterTasks"), api::get);
    }

    /** @param api made on the first refresh, on the polling thread */
    public ClusterTasksProvider(ClusterTasksConfig config, Supplier<EcsApi> api) {
        this.config = config;
        this.api = api;
        this.builder = new TaskConfigBuilder(config);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(ConfigurationSink sink) {
        if (started) {
            return;
        }
        started = true;
        LOG.info("clusterTasks provider: polling {} every {} s", config.autoDiscoverClusters() ? "every ECS cluster"
                : "ECS clusters " + String.join(", ", config.clusters()), config.refreshSeconds());
        supervisor = new PollingSupervisor(NAME, Duration.ofSeconds(config.refreshSeconds()), this::refresh, sink);
        supervisor.start();
    }

    @Override
    public synchronized void stop() {
        started = true; // a stopped provider does not start again
        if (supervisor != null) {
            supervisor.stop();
        }
        TaskFetcher f = fetcher;
        if (f != null) {
            f.close();
        }
    }

    /** What became of every task container in the last successful refresh. */
    public List<Explanation> explain() {
        return explanations;
    }

    /** The same, for the API's {@code /api/providers/clustertasks/explain}. */
    @Override
    public List<ExplainedItem> explainItems() {
        return explanations.stream().map(Explanation::item).toList();
    }

    private DynamicConfig refresh() {
        if (fetcher == null) {
            fetcher = new TaskFetcher(api.get(), config);
        }
        long startNanos = System.nanoTime();
        List<TaskContainer> containers = fetcher.fetch();
        TaskConfigBuilder.Built built = builder.build(containers);
        logChanges(built);
        explanations = built.explanations();
        var http = built.config().http();
        LOG.debug("clusterTasks provider: {} task containers, {} routers, {} services in {} ms", containers.size(),
                http.routers().size(), http.services().size(), (System.nanoTime() - startNanos) / 1_000_000);
        return built.config();
    }

    /** Logs resources left out when they first appear, and each container whose outcome changed (debug). */
    private void logChanges(TaskConfigBuilder.Built built) {
        Set<String> errors = new HashSet<>(built.errors());
        for (String error : built.errors()) {
            if (!loggedErrors.contains(error)) {
                LOG.error("clusterTasks provider: {}", error);
            }
        }
        loggedErrors = errors;
        Map<String, Explanation> explained = built.explanations().stream().collect(Collectors.toMap(
                e -> e.cluster() + "/" + e.task() + "/" + e.container(), Function.identity(), (a, b) -> a));
        if (LOG.isDebugEnabled()) {
            explained.forEach((key, e) -> {
                if (!e.equals(lastExplained.get(key))) {
                    LOG.debug("clusterTasks provider: {}", e);
                }
            });
        }
        lastExplained = explained;
    }
}
