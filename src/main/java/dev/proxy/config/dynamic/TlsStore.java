package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/**
 * {@code tls.stores.<name>}: only the {@code default} store exists.
 *
 * @param defaultCertificate served when no certificate matches the SNI name; without it, a self-signed certificate
 *                           generated at start is served
 */
public record TlsStore(@Nullable StoreCertificate defaultCertificate) {
}
