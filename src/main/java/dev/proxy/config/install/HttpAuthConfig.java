package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;

/** HTTP basic authentication towards a discovery backend ({@code endpoint.httpAuth}). */
public record HttpAuthConfig(@Nullable String username, @Nullable Secret password) {

    public HttpAuthConfig {
        if (username == null || username.isEmpty()) {
            throw new InvalidValueException("username", "httpAuth needs a username");
        }
        password = password == null ? new Secret("") : password;
    }
}
