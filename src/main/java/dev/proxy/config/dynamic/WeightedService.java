package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/** One member of a weighted service: a service name (possibly {@code name@provider}) and its weight (default 1). */
public record WeightedService(@Nullable String name, @Nullable Integer weight) {

    public WeightedService {
        if (name == null || name.isBlank()) {
            throw new InvalidValueException("name", "a weighted member needs a service name");
        }
        weight = weight == null ? 1 : weight;
        if (weight < 0) {
            throw new InvalidValueException("weight", "must not be negative");
        }
    }
}
