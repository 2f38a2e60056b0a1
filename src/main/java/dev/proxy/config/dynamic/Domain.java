package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Locale;

/**
 * {@code tls.domains[n]} of a router or entry point: the names a certificate resolver obtains one certificate for.
 *
 * @param main the main name (the certificate's first name)
 * @param sans further names on the same certificate
 */
public record Domain(@Nullable String main, @Nullable List<String> sans) {

    public Domain {
        main = main == null ? "" : main.trim().toLowerCase(Locale.ROOT);
        if (main.isEmpty()) {
            throw new InvalidValueException("main", "a domain needs a main name");
        }
        sans = sans == null ? List.of()
                : sans.stream().map(s -> s.trim().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty()).toList();
    }

    /** {@code main} then the SANs, without repeats. */
    public List<String> names() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(main), sans.stream()).distinct().toList();
    }
}
