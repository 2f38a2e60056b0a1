/**
 * The provider-independent core of the label providers ({@code registryCatalog} tags, {@code clusterTasks} container
 * labels): pure functions, no I/O.
 *
 * <p>A provider turns each discovered item (a Consul service instance, an ECS task container) into configuration in
 * three steps, then merges the items:
 * <ol>
 *   <li>{@link dev.proxy.config.label.LabelDecoder#decode} reads the item's {@code <prefix>.http.…} keys into a
 *       {@link dev.proxy.config.dynamic.DynamicConfig} (throws {@link dev.proxy.config.decode.ConfigException}: skip
 *       the item and log the message);</li>
 *   <li>{@link dev.proxy.config.label.ItemDefaults#apply} adds the defaults: a service named after the item, one
 *       server at the item's address, a router with the {@link dev.proxy.config.label.DefaultRule default rule};</li>
 *   <li>{@link dev.proxy.config.label.ItemMerger#merge} merges every item's configuration: same-named services share
 *       their servers, conflicting definitions are dropped with a {@link dev.proxy.config.label.Problem}, and a router
 *       spread over weighted services becomes a canary split.</li>
 * </ol>
 * Types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.proxy.config.label;

import io.micronaut.core.annotation.NullMarked;
