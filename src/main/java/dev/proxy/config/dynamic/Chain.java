package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/** {@code chain}: other middlewares applied in order, as one; names without {@code @provider} resolve in the chain's. */
public record Chain(@Nullable List<String> middlewares) {

    public Chain {
        middlewares = middlewares == null ? List.of() : middlewares.stream().map(String::trim).toList();
        if (middlewares.isEmpty() || middlewares.stream().anyMatch(String::isEmpty)) {
            throw new InvalidValueException("middlewares", "a chain needs middleware names");
        }
    }
}
