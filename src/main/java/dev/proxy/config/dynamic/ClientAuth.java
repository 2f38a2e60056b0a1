package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code tls.options.<name>.clientAuth}: client certificates (mTLS).
 *
 * @param caFiles        CA certificates (PEM files, or PEM content inline) that client certificates must chain to
 * @param clientAuthType what is asked of the client; default {@code VerifyClientCertIfGiven} when {@code caFiles} are
 *                       given (as Traefik), {@code NoClientCert} otherwise
 */
public record ClientAuth(@Nullable List<String> caFiles, @Nullable ClientAuthType clientAuthType) {

    public static final ClientAuth NONE = new ClientAuth(null, null);

    public ClientAuth {
        caFiles = caFiles == null ? List.of() : caFiles.stream().map(String::trim).filter(f -> !f.isEmpty()).toList();
        if (clientAuthType == null) {
            clientAuthType = caFiles.isEmpty() ? ClientAuthType.NoClientCert : ClientAuthType.VerifyClientCertIfGiven;
        }
        if (clientAuthType.verified() && caFiles.isEmpty()) {
            // Verifying against "no CA" would either accept nothing or, worse, fall back to the JVM's public roots.
            throw new InvalidValueException("clientAuthType", clientAuthType + " needs caFiles to verify client certificates against");
        }
    }
}
