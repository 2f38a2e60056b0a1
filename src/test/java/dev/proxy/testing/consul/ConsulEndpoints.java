package dev.proxy.testing.consul;

import io.micronaut.core.annotation.Nullable;
import java.net.URI;

/**
 * Where a running agent listens and how to authenticate to it. Tokens are secrets: {@link #toString()}
 * never shows them.
 *
 * @param http            the plain HTTP API, always on (test set-up uses it even on TLS agents)
 * @param https           the HTTPS API demanding a client certificate; {@code null} unless TLS
 * @param managementToken the ACL management token; {@code null} unless ACL
 * @param readToken       a token that may only read services and nodes; {@code null} unless ACL
 * @param tls             the CA and client certificate files; {@code null} unless TLS
 */
public record ConsulEndpoints(
        URI http,
        @Nullable URI https,
        @Nullable String managementToken,
        @Nullable String readToken,
        @Nullable ConsulTlsFiles tls) {

    @Override
    public String toString() {
        return "ConsulEndpoints[http=" + http + ", https=" + https
                + ", managementToken=" + (managementToken == null ? "none" : "****")
                + ", readToken=" + (readToken == null ? "none" : "****")
                + ", tls=" + tls + "]";
    }
}
