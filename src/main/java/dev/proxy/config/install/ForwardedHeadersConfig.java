package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code entryPoints.<name>.forwardedHeaders}: whose {@code X-Forwarded-*} headers are believed.
 *
 * @param trustedIPs peers (IPs or CIDRs) whose forwarded headers are kept; from anyone else they are replaced
 * @param insecure   trust every peer (never on an edge facing the internet; default false)
 */
public record ForwardedHeadersConfig(@Nullable List<String> trustedIPs, @Nullable Boolean insecure) {

    public static final ForwardedHeadersConfig DEFAULT = new ForwardedHeadersConfig(null, null);

    public ForwardedHeadersConfig {
        trustedIPs = trustedIPs == null ? List.of() : List.copyOf(trustedIPs);
        insecure = insecure != null && insecure;
    }
}
