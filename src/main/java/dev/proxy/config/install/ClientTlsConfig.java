package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * TLS towards a discovery backend ({@code endpoint.tls}): files in PEM.
 *
 * @param ca                 CA bundle that signs the server certificate (default: the JVM's trust store)
 * @param cert               client certificate, with {@code key}
 * @param key                client private key, with {@code cert}
 * @param insecureSkipVerify do not verify the server certificate (default false; for tests only)
 */
public record ClientTlsConfig(@Nullable String ca, @Nullable String cert, @Nullable String key,
                              @Nullable Boolean insecureSkipVerify) {

    public ClientTlsConfig {
        insecureSkipVerify = insecureSkipVerify != null && insecureSkipVerify;
        if ((cert == null) != (key == null)) {
            throw new InvalidValueException(cert == null ? "key" : "cert", "tls.cert and tls.key must be given together");
        }
    }
}
