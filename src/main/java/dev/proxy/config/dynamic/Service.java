package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/** {@code http.services.<name>}: exactly one of a load balancer over servers or a weighted set of services. */
public record Service(@Nullable LoadBalancer loadBalancer, @Nullable Weighted weighted) {

    public Service {
        if ((loadBalancer == null) == (weighted == null)) {
            throw new InvalidValueException(loadBalancer == null ? "loadBalancer" : "weighted",
                    "a service needs exactly one of loadBalancer or weighted");
        }
    }
}
