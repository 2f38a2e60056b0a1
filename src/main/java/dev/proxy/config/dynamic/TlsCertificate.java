package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code tls.certificates[n]}: a certificate served to clients whose SNI name it covers (its DNS names, wildcards
 * included).
 *
 * @param certFile the certificate chain, leaf first: a PEM file, or the PEM content itself (as Traefik allows)
 * @param keyFile  its private key: a PEM file or the PEM content (PKCS#8, PKCS#1 RSA or SEC1 EC); a secret, since
 *                 it may be the key itself
 * @param stores   the stores that hold it; only {@code default} exists (default {@code [default]})
 */
public record TlsCertificate(@Nullable String certFile, @Nullable Secret keyFile, @Nullable List<String> stores) {

    public static final String DEFAULT_STORE = "default";

    public TlsCertificate {
        certFile = certFile == null ? "" : certFile.trim();
        if (certFile.isEmpty()) {
            throw new InvalidValueException("certFile", "a certificate needs certFile (a PEM file or PEM content)");
        }
        if (keyFile == null || keyFile.reveal().isBlank()) {
            throw new InvalidValueException("keyFile", "a certificate needs keyFile (a PEM file or PEM content)");
        }
        stores = stores == null || stores.isEmpty() ? List.of(DEFAULT_STORE) : List.copyOf(stores);
        for (String store : stores) {
            if (!store.equals(DEFAULT_STORE)) {
                throw new InvalidValueException("stores", "only the \"default\" store exists, not \"" + store + "\"");
            }
        }
    }

    public TlsCertificate(String certFile, String keyFile) {
        this(certFile, new Secret(keyFile), null);
    }
}
