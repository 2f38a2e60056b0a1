package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;

/** {@code http.middlewares.<name>}: exactly one middleware type per name. */
public record Middleware(@Nullable IpAllowList ipAllowList, @Nullable BasicAuth basicAuth, @Nullable Compress compress,
                         @Nullable RateLimit rateLimit, @Nullable Headers headers, @Nullable StripPrefix stripPrefix,
                         @Nullable AddPrefix addPrefix, @Nullable ReplacePath replacePath,
                         @Nullable RedirectScheme redirectScheme, @Nullable RedirectRegex redirectRegex,
                         @Nullable Chain chain, @Nullable Buffering buffering) {

    public Middleware {
        Object[] values = {ipAllowList, basicAuth, compress, rateLimit, headers, stripPrefix, addPrefix, replacePath,
                redirectScheme, redirectRegex, chain, buffering};
        String[] names = {"ipAllowList", "basicAuth", "compress", "rateLimit", "headers", "stripPrefix", "addPrefix",
                "replacePath", "redirectScheme", "redirectRegex", "chain", "buffering"};
        List<String> set = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                set.add(names[i]);
            }
        }
        if (set.size() != 1) {
            throw new InvalidValueException(set.isEmpty() ? "ipAllowList" : set.get(1),
                    set.isEmpty() ? "a middleware needs a type (for example basicAuth or ipAllowList)"
                            : "a middleware has exactly one type, not " + set);
        }
    }

    /** An ipAllowList middleware (the type code and tests most often build directly). */
    public Middleware(IpAllowList ipAllowList) {
        this(ipAllowList, null, null, null, null, null, null, null, null, null, null, null);
    }
}
