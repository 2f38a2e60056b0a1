package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/** {@code addPrefix}: puts {@code prefix} in front of the forwarded path. */
public record AddPrefix(@Nullable String prefix) {

    public AddPrefix {
        prefix = prefix == null ? "" : prefix.trim();
        PathSyntax.check("prefix", prefix);
    }
}
