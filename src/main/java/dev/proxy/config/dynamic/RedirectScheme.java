package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.Locale;

/**
 * {@code redirectScheme}: redirects requests that do not arrive on {@code scheme} (typically http → https).
 *
 * @param scheme    target scheme (required)
 * @param port      target port; empty keeps none (the scheme's default)
 * @param permanent 301/308 instead of 302/307
 */
public record RedirectScheme(@Nullable String scheme, @Nullable String port, @Nullable Boolean permanent) {

    public RedirectScheme {
        scheme = scheme == null ? "" : scheme.trim().toLowerCase(Locale.ROOT);
        if (!scheme.matches("[a-z][a-z0-9+.-]*")) {
            throw new InvalidValueException("scheme", "a scheme such as https is required");
        }
        port = port == null ? "" : port.trim();
        if (!port.isEmpty() && (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535)) {
            throw new InvalidValueException("port", "must be a port number");
        }
        permanent = permanent != null && permanent;
    }
}
