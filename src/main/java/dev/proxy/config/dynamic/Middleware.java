package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code http.middlewares.<name>}: exactly one middleware type per name. Issue 4 adds basicAuth, compress,
 * rateLimit, headers, stripPrefix and the rest as further components.
 */
public record Middleware(@Nullable IpAllowList ipAllowList) {

    public Middleware {
        List<String> set = new ArrayList<>();
        if (ipAllowList != null) {
            set.add("ipAllowList");
        }
        if (set.size() != 1) {
            throw new InvalidValueException(set.isEmpty() ? "ipAllowList" : set.get(1),
                    set.isEmpty() ? "a middleware needs a type (for example ipAllowList)"
                            : "a middleware has exactly one type, not " + set);
        }
    }
}
