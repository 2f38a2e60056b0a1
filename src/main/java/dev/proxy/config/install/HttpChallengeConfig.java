package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code certificatesResolvers.<name>.acme.httpChallenge}: answer ACME HTTP-01 challenges.
 *
 * @param entryPoint the entry point that serves {@code /.well-known/acme-challenge/<token>} (it must be reachable on
 *                   port 80 of every name, as the CA connects there)
 */
public record HttpChallengeConfig(@Nullable String entryPoint) {

    public HttpChallengeConfig {
        entryPoint = entryPoint == null ? "" : entryPoint.trim();
        if (entryPoint.isEmpty()) {
            throw new InvalidValueException("entryPoint", "httpChallenge needs the entry point that answers the CA (port 80)");
        }
    }
}
