package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code entryPoints.<name>.http}: what applies to every router on the entry point.
 *
 * @param middlewares         prepended to each router's own middlewares, in order; a name without {@code @provider}
 *                            resolves in the provider of the router it is applied to
 * @param tls                 when present, every router on the entry point is served on TLS only (null: routers decide)
 * @param maxRequestBodyBytes the largest request body accepted on the entry point, in bytes (413 beyond it); 0, the
 *                            default, is no limit (as in Traefik, whose {@code buffering} middleware is the only limit)
 */
public record EntryPointHttpConfig(@Nullable List<String> middlewares, @Nullable EntryPointTlsConfig tls,
                                   @Nullable Long maxRequestBodyBytes) {

    public static final EntryPointHttpConfig DEFAULT = new EntryPointHttpConfig(null, null, null);

    public EntryPointHttpConfig {
        middlewares = middlewares == null ? List.of()
                : middlewares.stream().map(String::trim).filter(m -> !m.isEmpty()).toList();
        maxRequestBodyBytes = maxRequestBodyBytes == null ? 0L : maxRequestBodyBytes;
        if (maxRequestBodyBytes < 0) {
            throw new InvalidValueException("maxRequestBodyBytes", maxRequestBodyBytes
                    + ": must be 0 (no limit) or a number of bytes");
        }
    }
}
