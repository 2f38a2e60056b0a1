package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code http.services.<name>.loadBalancer}: smooth weighted round robin over servers.
 *
 * @param servers        backends; a server with weight 0 receives nothing
 * @param passHostHeader forward the client's Host header (default true); otherwise the server's host
 * @param healthCheck    active health check; unhealthy servers leave the rotation until they pass again
 * @param passiveHealthCheck servers failing live requests leave the rotation for a while
 * @param sticky         sticky sessions by cookie
 * @param weight         the seed's {@code loadbalancer.weight}: this service's share when routers of two services
 *                       are merged into a canary split by a label provider (null when not given)
 */
public record LoadBalancer(@Nullable List<Server> servers, @Nullable Boolean passHostHeader,
                           @Nullable HealthCheck healthCheck, @Nullable Sticky sticky, @Nullable Integer weight,
                           @Nullable PassiveHealthCheck passiveHealthCheck) {

    public LoadBalancer {
        servers = servers == null ? List.of() : List.copyOf(servers);
        passHostHeader = passHostHeader == null || passHostHeader;
        if (weight != null && weight < 0) {
            throw new InvalidValueException("weight", "must not be negative");
        }
    }

    /** Without a passive health check. */
    public LoadBalancer(List<Server> servers, Boolean passHostHeader, HealthCheck healthCheck, Sticky sticky, Integer weight) {
        this(servers, passHostHeader, healthCheck, sticky, weight, null);
    }
}
