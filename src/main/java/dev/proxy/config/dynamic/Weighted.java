package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/** {@code http.services.<name>.weighted}: a canary split over other services. */
public record Weighted(@Nullable List<WeightedService> services, @Nullable Sticky sticky) {

    public Weighted {
        services = services == null ? List.of() : List.copyOf(services);
        if (services.isEmpty()) {
            throw new InvalidValueException("services", "a weighted service needs at least one service");
        }
    }
}
