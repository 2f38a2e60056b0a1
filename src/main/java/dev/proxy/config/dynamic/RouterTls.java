package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/** {@code http.routers.<name>.tls}: serve this router over TLS (certificates and resolvers arrive with issue 4). */
public record RouterTls(@Nullable String certResolver, @Nullable String options) {
}
