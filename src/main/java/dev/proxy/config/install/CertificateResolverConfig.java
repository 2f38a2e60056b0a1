package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code certificatesResolvers.<name>}: where routers naming this resolver ({@code tls.certResolver}) get their
 * certificates. ACME is the only kind.
 */
public record CertificateResolverConfig(@Nullable AcmeConfig acme) {

    public CertificateResolverConfig {
        if (acme == null) {
            throw new InvalidValueException("acme", "a certificate resolver needs an acme section");
        }
    }
}
