package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code http.routers.<name>}: a rule, the entry points it listens on, middlewares, and the service it sends to.
 *
 * @param entryPoints empty means every entry point except the internal {@code proxy} one
 * @param middlewares applied in order; names without {@code @provider} resolve in the router's provider
 * @param service     service name; without {@code @provider} it resolves in the router's provider
 * @param rule        Traefik v3 rule syntax
 * @param priority    0 (default) means the rule's length
 * @param tls         serve on TLS connections only (and not on plain ones)
 */
public record Router(@Nullable List<String> entryPoints, @Nullable List<String> middlewares, @Nullable String service,
                     @Nullable String rule, @Nullable Long priority, @Nullable RouterTls tls) {

    public Router {
        entryPoints = entryPoints == null ? List.of() : List.copyOf(entryPoints);
        middlewares = middlewares == null ? List.of() : List.copyOf(middlewares);
        service = service == null ? "" : service.trim();
        rule = rule == null ? "" : rule;
        priority = priority == null ? 0L : priority;
    }
}
