package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code http.routers.<name>.tls}: serve this router on TLS connections only (and not on plain ones).
 *
 * @param certResolver a certificate resolver ({@code certificatesResolvers.<name>}) that obtains certificates for
 *                     {@code domains}, or else for the router's {@code Host} names
 * @param options      the TLS options to negotiate with ({@code tls.options.<name>}; default {@code default}); a
 *                     name without {@code @provider} resolves in the router's provider
 * @param domains      names for the certificate resolver; default: the {@code Host(...)} names of the rule
 */
public record RouterTls(@Nullable String certResolver, @Nullable String options, @Nullable List<Domain> domains) {

    public static final RouterTls ENABLED = new RouterTls(null, null, null);

    public RouterTls {
        certResolver = certResolver == null || certResolver.isBlank() ? null : certResolver.trim();
        options = options == null || options.isBlank() ? null : options.trim();
        domains = domains == null ? List.of() : List.copyOf(domains);
    }

    public RouterTls(String certResolver, String options) {
        this(certResolver, options, null);
    }
}
