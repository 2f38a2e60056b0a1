package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/** {@code replacePath}: forwards {@code path} instead of the request path, which goes in {@code X-Replaced-Path}. */
public record ReplacePath(@Nullable String path) {

    public ReplacePath {
        path = path == null ? "" : path.trim();
        PathSyntax.check("path", path);
    }
}
