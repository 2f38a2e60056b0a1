package dev.proxy.middleware;

import dev.proxy.config.dynamic.Middleware;
import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.github.bucket4j.TimeMeter;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the data-plane middlewares of each configuration and keeps what must outlive one: a middleware whose name
 * and configuration did not change is reused by the next configuration, so rate-limit buckets, verified-password
 * caches and Redis connections survive the frequent reloads caused by discovery; replaced ones are closed.
 *
 * <p>A configuration that cannot be honoured throws {@link IllegalArgumentException}; the routers using that
 * middleware are then disabled (fail closed: never "no protection").
 */
@Singleton
public final class Middlewares implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Middlewares.class);

    private final TimeMeter clock;
    private final VerifierPool verifiers = VerifierPool.perCore();
    private ClientResources redisResources;
    private volatile Map<String, Built> current = Map.of();

    private record Built(Middleware config, HttpMiddleware middleware) {
    }

    @Inject
    public Middlewares() {
        this(TimeMeter.SYSTEM_NANOTIME);
    }

    /** @param clock the rate limiters' clock (a fake one in tests) */
    public Middlewares(TimeMeter clock) {
        this.clock = clock;
    }

    /**
     * Starts building the middlewares of one configuration.
     *
     * @param configs                all middlewares by qualified name ({@code name@provider})
     * @param trustsForwardedHeaders whether a request's peer may supply X-Forwarded-* (its entry point's setting)
     */
    public Generation generation(Map<String, Middleware> configs, Predicate<Exchange> trustsForwardedHeaders) {
        return new Generation(configs, trustsForwardedHeaders);
    }

    /** The middlewares of one configuration; used by one thread, then {@link #publish published}. */
    public final class Generation {

        private final Map<String, Middleware> configs;
        private final Predicate<Exchange> trust;
        private final Map<String, Built> leaves = new HashMap<>();
        private final Map<String, HttpMiddleware> chains = new HashMap<>();
        private final Map<String, IllegalArgumentException> failed = new HashMap<>();

        private Generation(Map<String, Middleware> configs, Predicate<Exchange> trust) {
            this.configs = configs;
            this.trust = trust;
        }

        /**
         * Wraps {@code next} in the named middlewares, the first outermost.
         *
         * @param referrer the qualified name of the router using them: names without {@code @provider} resolve in its
         *                 provider
         * @throws IllegalArgumentException naming the middleware that does not exist or cannot be built
         */
        public RouteHandler wrap(String referrer, List<String> names, RouteHandler next) {
            RouteHandler handler = next;
            for (int i = names.size() - 1; i >= 0; i--) {
                handler = resolve(qualify(names.get(i), referrer), new LinkedHashSet<>()).wrap(handler);
            }
            return handler;
        }

        private HttpMiddleware resolve(String name, Set<String> path) {
            if (!path.add(name)) {
                throw new IllegalArgumentException("middleware chain cycle: " + String.join(" -> ", path) + " -> " + name);
            }
            try {
                Built leaf = leaves.get(name);
                if (leaf != null) {
                    return leaf.middleware();
                }
                HttpMiddleware chain = chains.get(name);
                if (chain != null) {
                    return chain;
                }
                IllegalArgumentException earlier = failed.get(name);
                if (earlier != null) {
                    throw earlier;
                }
                Middleware config = configs.get(name);
                if (config == null) {
                    throw new IllegalArgumentException("the middleware \"" + name + "\" does not exist");
                }
                if (config.chain() != null) {
                    List<HttpMiddleware> members = new ArrayList<>();
                    for (String member : config.chain().middlewares()) {
                        members.add(resolve(qualify(member, name), path));
                    }
                    chain = next -> {
                        RouteHandler h = next;
                        for (int i = members.size() - 1; i >= 0; i--) {
                            h = members.get(i).wrap(h);
                        }
                        return h;
                    };
                    chains.put(name, chain);
                    return chain;
                }
                Built previous = current.get(name);
                HttpMiddleware m = previous != null && previous.config().equals(config) ? previous.middleware()
                        : buildLeaf(name, config);
                leaves.put(name, new Built(config, m));
                return m;
            } finally {
                path.remove(name);
            }
        }

        private HttpMiddleware buildLeaf(String name, Middleware config) {
            try {
                return create(name, config, trust);
            } catch (IllegalArgumentException bad) {
                IllegalArgumentException e = new IllegalArgumentException("middleware " + name + ": " + bad.getMessage());
                failed.put(name, e);
                throw e;
            }
        }

        /** The middlewares that could not be built (so far), with the reason. */
        public Map<String, String> errors() {
            Map<String, String> out = new java.util.TreeMap<>();
            failed.forEach((name, e) -> out.put(name, e.getMessage()));
            return out;
        }

        /** Makes this generation current: middlewares of the previous one that it does not reuse are closed. */
        public void publish() {
            synchronized (Middlewares.this) {
                current.forEach((name, old) -> {
                    Built kept = leaves.get(name);
                    if ((kept == null || kept.middleware() != old.middleware()) && old.middleware() instanceof AutoCloseable c) {
                        closeQuietly(name, c);
                    }
                });
                current = Map.copyOf(leaves);
            }
        }
    }

    private HttpMiddleware create(String name, Middleware c, Predicate<Exchange> trust) {
        // Local files and environment variables may only be named by the operator's own file configuration: a tag
        // could otherwise make the proxy read a secret and send it to a server of the tag author's choosing.
        boolean localFilesAllowed = !name.contains("@") || name.endsWith("@file");
        if (c.ipAllowList() != null) {
            return new IpAllowListMiddleware(c.ipAllowList());
        } else if (c.basicAuth() != null) {
            return BasicAuthMiddleware.create(c.basicAuth(), localFilesAllowed, verifiers);
        } else if (c.compress() != null) {
            return new CompressMiddleware(c.compress());
        } else if (c.rateLimit() != null) {
            return RateLimitMiddleware.create(name, c.rateLimit(), clock, localFilesAllowed, this::redisResources);
        } else if (c.headers() != null) {
            return new HeadersMiddleware(c.headers());
        } else if (c.stripPrefix() != null) {
            return PathRewrite.stripPrefix(c.stripPrefix());
        } else if (c.addPrefix() != null) {
            return PathRewrite.addPrefix(c.addPrefix());
        } else if (c.replacePath() != null) {
            return PathRewrite.replacePath(c.replacePath());
        } else if (c.redirectScheme() != null) {
            return new RedirectSchemeMiddleware(c.redirectScheme(), trust);
        } else if (c.redirectRegex() != null) {
            return new RedirectRegexMiddleware(c.redirectRegex(), trust);
        } else if (c.buffering() != null) {
            return new BufferingMiddleware(c.buffering());
        }
        throw new IllegalArgumentException("unsupported middleware type");
    }

    /** One small set of Lettuce I/O threads for every Redis-backed rate limit, created on first use. */
    private synchronized ClientResources redisResources() {
        if (redisResources == null) {
            redisResources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
        }
        return redisResources;
    }

    /** A name without {@code @provider} resolves in the provider of the name referring to it. */
    static String qualify(String name, String referrer) {
        int at = referrer.lastIndexOf('@');
        return name.contains("@") || at < 0 ? name : name + referrer.substring(at);
    }

    private static void closeQuietly(String name, AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("closing middleware {}: {}", name, e.toString());
        }
    }

    /** bcrypt checks run so far, for tests. */
    long passwordChecks() {
        return verifiers.checksRun();
    }

    /** The built middleware currently in use under {@code name}, for tests. */
    HttpMiddleware current(String name) {
        Built b = current.get(name);
        return b == null ? null : b.middleware();
    }

    @Override
    @PreDestroy
    public synchronized void close() {
        current.forEach((name, b) -> {
            if (b.middleware() instanceof AutoCloseable c) {
                closeQuietly(name, c);
            }
        });
        current = Map.of();
        verifiers.close();
        if (redisResources != null) {
            redisResources.shutdown();
        }
    }
}
