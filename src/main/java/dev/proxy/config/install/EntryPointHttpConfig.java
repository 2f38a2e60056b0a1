package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code entryPoints.<name>.http}: what applies to every router on the entry point.
 *
 * @param middlewares prepended to each router's own middlewares, in order; a name without {@code @provider}
 *                    resolves in the provider of the router it is applied to
 * @param tls         when present, every router on the entry point is served on TLS only (null: routers decide)
 */
public record EntryPointHttpConfig(@Nullable List<String> middlewares, @Nullable EntryPointTlsConfig tls) {

    public static final EntryPointHttpConfig DEFAULT = new EntryPointHttpConfig(null, null);

    public EntryPointHttpConfig {
        middlewares = middlewares == null ? List.of()
                : middlewares.stream().map(String::trim).filter(m -> !m.isEmpty()).toList();
    }
}
