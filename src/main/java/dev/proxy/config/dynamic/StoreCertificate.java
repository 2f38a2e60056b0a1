package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code tls.stores.default.defaultCertificate}: the certificate served when no other one matches the SNI name.
 *
 * @param certFile a PEM file or PEM content
 * @param keyFile  a PEM file or PEM content (a secret)
 */
public record StoreCertificate(@Nullable String certFile, @Nullable Secret keyFile) {

    public StoreCertificate {
        certFile = certFile == null ? "" : certFile.trim();
        if (certFile.isEmpty()) {
            throw new InvalidValueException("certFile", "defaultCertificate needs certFile (a PEM file or PEM content)");
        }
        if (keyFile == null || keyFile.reveal().isBlank()) {
            throw new InvalidValueException("keyFile", "defaultCertificate needs keyFile (a PEM file or PEM content)");
        }
    }
}
