package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code http}: named routers, services and middlewares (names unqualified within one provider). */
public record HttpConfig(@Nullable Map<String, Router> routers, @Nullable Map<String, Service> services,
                         @Nullable Map<String, Middleware> middlewares) {

    public static final HttpConfig EMPTY = new HttpConfig(null, null, null);

    public HttpConfig {
        routers = freeze(routers);
        services = freeze(services);
        middlewares = freeze(middlewares);
    }

    private static <V> Map<String, V> freeze(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
