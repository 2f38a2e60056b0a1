package dev.proxy.config.install;

import dev.proxy.config.dynamic.Domain;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code entryPoints.<name>.http.tls}: makes every router on the entry point a TLS router, with these settings when
 * the router has no {@code tls} of its own (Traefik's entry-point TLS default). Internal routers ({@code ping}) are
 * TLS-only there too.
 *
 * @param options      TLS options name (default {@code default})
 * @param certResolver certificate resolver for the routers' names
 * @param domains      names for the resolver, instead of the routers' {@code Host} names
 */
public record EntryPointTlsConfig(@Nullable String options, @Nullable String certResolver,
                                  @Nullable List<Domain> domains) {

    public EntryPointTlsConfig {
        options = options == null || options.isBlank() ? null : options.trim();
        certResolver = certResolver == null || certResolver.isBlank() ? null : certResolver.trim();
        domains = domains == null ? List.of() : List.copyOf(domains);
    }
}
