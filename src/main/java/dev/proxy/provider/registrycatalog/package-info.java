/**
 * The {@code registryCatalog} provider: routing configuration from the Consul catalog through service tags, in
 * Traefik's three parts:
 * <ul>
 *   <li>{@link dev.proxy.provider.registrycatalog.CatalogClient}: I/O only, one method per Consul endpoint
 *       ({@link dev.proxy.provider.registrycatalog.ConsulHttpClient} on the Micronaut HTTP client);</li>
 *   <li>{@link dev.proxy.provider.registrycatalog.CatalogSource#fetch}: the catalog as
 *       {@link dev.proxy.provider.registrycatalog.CatalogItem} records (one per service instance);</li>
 *   <li>{@link dev.proxy.provider.registrycatalog.CatalogConfigBuilder}: pure, items to a dynamic configuration and
 *       one {@link dev.proxy.provider.registrycatalog.Explanation} per catalog service or instance.</li>
 * </ul>
 * Types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.proxy.provider.registrycatalog;

import io.micronaut.core.annotation.NullMarked;
