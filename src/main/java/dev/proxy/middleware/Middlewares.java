package dev.proxy.middleware;

import dev.proxy.config.dynamic.Middleware;

/** Builds the data-plane middleware for a configuration; refuses (throws) on invalid configuration. */
public final class Middlewares {

    private Middlewares() {
    }

    /**
     * @throws IllegalArgumentException with a reason when the configuration cannot be honoured; routers using the
     *                                  middleware are then disabled (fail closed, never "no protection")
     */
    public static HttpMiddleware build(Middleware config) {
        if (config.ipAllowList() != null) {
            return new IpAllowListMiddleware(config.ipAllowList());
        }
        throw new IllegalArgumentException("unsupported middleware type");
    }
}
