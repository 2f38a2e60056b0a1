package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code stripPrefix}: removes the first matching prefix from the forwarded path (a raw string prefix, as
 * {@code PathPrefix} matches) and tells the backend in {@code X-Forwarded-Prefix}.
 */
public record StripPrefix(@Nullable List<String> prefixes) {

    public StripPrefix {
        prefixes = prefixes == null ? List.of() : prefixes.stream().map(String::trim).toList();
        if (prefixes.isEmpty()) {
            throw new InvalidValueException("prefixes", "stripPrefix needs at least one prefix");
        }
        for (String p : prefixes) {
            if (!p.startsWith("/")) {
                throw new InvalidValueException("prefixes", "a prefix must start with /");
            }
            HeaderSyntax.checkValue("prefixes", p); // it is sent back in X-Forwarded-Prefix
        }
    }
}
