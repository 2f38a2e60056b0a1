package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.net.URI;
import java.util.List;

/**
 * {@code certificatesResolvers.<name>.acme}: obtains and renews certificates from an ACME CA (Let's Encrypt by
 * default) for the names of the routers that use the resolver.
 *
 * @param email          contact address of the ACME account (optional)
 * @param storage        JSON file keeping the account and certificates across restarts (default {@code acme.json};
 *                       written with mode 0600; one file may be shared by several resolvers)
 * @param caServer       the CA's directory URL (default Let's Encrypt production)
 * @param httpChallenge  answer HTTP-01 challenges on an entry point
 * @param tlsChallenge   answer TLS-ALPN-01 challenges on TLS entry points
 * @param keyType        key of the certificates (default {@code RSA4096}, as Traefik)
 * @param caCertificates extra CA certificates (PEM files) trusted for the connection to {@code caServer}, for a
 *                       private CA; the JVM's trust store is trusted as well
 */
public record AcmeConfig(@Nullable String email, @Nullable String storage, @Nullable String caServer,
                         @Nullable HttpChallengeConfig httpChallenge, @Nullable TlsChallengeConfig tlsChallenge,
                         @Nullable AcmeKeyType keyType, @Nullable List<String> caCertificates) {

    public static final String DEFAULT_STORAGE = "acme.json";
    public static final String LETS_ENCRYPT = "https://acme-v02.api.letsencrypt.org/directory";

    public AcmeConfig {
        email = email == null ? "" : email.trim();
        storage = storage == null || storage.isBlank() ? DEFAULT_STORAGE : storage.trim();
        caServer = caServer == null || caServer.isBlank() ? LETS_ENCRYPT : caServer.trim();
        try {
            URI uri = URI.create(caServer);
            if (!"https".equals(uri.getScheme()) && !"acme".equals(uri.getScheme())) {
                throw new InvalidValueException("caServer", "must be an https:// URL (or an acme4j acme:// URI)");
            }
        } catch (IllegalArgumentException e) {
            if (e instanceof InvalidValueException) {
                throw e;
            }
            throw new InvalidValueException("caServer", "not a URL: " + e.getMessage());
        }
        if (httpChallenge == null && tlsChallenge == null) {
            throw new InvalidValueException("httpChallenge",
                    "an ACME resolver needs httpChallenge.entryPoint or tlsChallenge (DNS-01 is not supported)");
        }
        keyType = keyType == null ? AcmeKeyType.RSA4096 : keyType;
        caCertificates = caCertificates == null ? List.of()
                : caCertificates.stream().map(String::trim).filter(c -> !c.isEmpty()).toList();
    }
}
