/**
 * The {@code clusterTasks} provider: ECS tasks discovered through their containers' docker labels.
 *
 * <p>Three parts, as in every provider: {@link dev.proxy.provider.clustertasks.EcsApi} (the AWS calls, I/O only),
 * {@link dev.proxy.provider.clustertasks.TaskFetcher} (one poll: clusters, tasks, container instances, task
 * definitions, with caches; returns {@link dev.proxy.provider.clustertasks.TaskContainer} items) and
 * {@link dev.proxy.provider.clustertasks.TaskConfigBuilder} (pure: items to a dynamic configuration and an
 * explanation per container). {@link dev.proxy.provider.clustertasks.ClusterTasksProvider} runs them under the
 * polling supervisor.
 *
 * <p>Types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.proxy.provider.clustertasks;

import io.micronaut.core.annotation.NullMarked;
