package dev.proxy.middleware;

import dev.proxy.config.decode.GoDuration;
import dev.proxy.config.dynamic.RateLimit;
import dev.proxy.config.dynamic.RedisConfig;
import dev.proxy.config.dynamic.SourceCriterion;
import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.lettuce.core.resource.ClientResources;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code rateLimit}: a token bucket per source; a request finding its bucket empty gets 429 with
 * {@code Retry-After} (whole seconds, rounded up) and {@code X-Retry-In}. Buckets live in this process
 * ({@link LocalBuckets}) or, with {@code redis}, in Redis shared by every replica ({@link RedisBuckets}); while
 * Redis is unreachable the configured failure mode applies.
 */
final class RateLimitMiddleware implements HttpMiddleware, AutoCloseable {

    private final Function<Exchange, String> source;
    private final LocalBuckets local;
    private final RedisBuckets redis;
    private final RedisConfig.FailureMode failureMode;

    RateLimitMiddleware(RateLimit config, LocalBuckets local, RedisBuckets redis) {
        this.source = source(config.sourceCriterion());
        this.local = local;
        this.redis = redis;
        this.failureMode = config.redis() == null ? RedisConfig.FailureMode.LOCAL : config.redis().failureMode();
    }

    /**
     * @param name              the middleware's qualified name (part of the Redis keys: equal on every replica)
     * @param localFilesAllowed whether {@code passwordFile}/{@code passwordEnv} may be read (file provider only: a
     *                          tag must not make the proxy send a local secret to a Redis server the tag names)
     */
    static RateLimitMiddleware create(String name, RateLimit config, TimeMeter clock, boolean localFilesAllowed,
                                      Supplier<ClientResources> redisResources) {
        if (config.average() == 0) {
            return new RateLimitMiddleware(config, null, null);
        }
        LocalBuckets local = new LocalBuckets(config.average(), config.period(), config.burst(), clock, LocalBuckets.MAX_SOURCES);
        RedisConfig r = config.redis();
        if (r == null) {
            return new RateLimitMiddleware(config, local, null);
        }
        String password = password(r, localFilesAllowed);
        BucketConfiguration bucket = BucketConfiguration.builder()
                .addLimit(LocalBuckets.bandwidth(config.average(), config.period(), config.burst())).build();
        RedisBuckets shared = new RedisBuckets(name, r.endpoints().get(0).trim(), r.username(), password, r.db(),
                r.dialTimeout(), r.readTimeout(), bucket, redisResources.get());
        return new RateLimitMiddleware(config, local, shared);
    }

    private static String password(RedisConfig r, boolean localFilesAllowed) {
        if (!r.passwordFile().isEmpty() || !r.passwordEnv().isEmpty()) {
            if (!localFilesAllowed) {
                throw new IllegalArgumentException("redis.passwordFile and redis.passwordEnv are only honoured in the "
                        + "file provider's configuration");
            }
            if (!r.passwordEnv().isEmpty()) {
                String v = System.getenv(r.passwordEnv());
                if (v == null || v.isEmpty()) {
                    throw new IllegalArgumentException("redis.passwordEnv: " + r.passwordEnv() + " is not set");
                }
                return v;
            }
            try {
                return Files.readString(Path.of(r.passwordFile())).strip();
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("cannot read redis.passwordFile " + r.passwordFile() + ": "
                        + e.getClass().getSimpleName());
            }
        }
        return r.password().reveal();
    }

    private static Function<Exchange, String> source(SourceCriterion c) {
        if (!c.requestHeaderName().isEmpty()) {
            String header = c.requestHeaderName();
            return ex -> ex.request().headers().get(header, ""); // absent: one bucket for all such requests
        }
        if (c.requestHost()) {
            return Exchange::host;
        }
        ClientAddressStrategy strategy = ClientAddressStrategy.of(c.ipStrategy());
        return ex -> {
            InetAddress a = strategy.clientAddress(ex);
            return a == null ? "" : a.getHostAddress();
        };
    }

    @Override
    public RouteHandler wrap(RouteHandler next) {
        if (local == null) {
            return next; // average 0: no limit
        }
        return HttpMiddleware.around(next, exchange -> limit(exchange, next));
    }

    private void limit(Exchange exchange, RouteHandler next) {
        String key = source.apply(exchange);
        if (redis == null) {
            decide(exchange, next, local.tryConsume(key));
            return;
        }
        Suspended waiting = new Suspended(exchange);
        redis.tryConsume(key).whenComplete((probe, error) -> {
            redis.outcome(error);
            waiting.resume(() -> {
                if (error == null) {
                    decide(exchange, next, probe);
                } else {
                    redisDown(exchange, next, key);
                }
            });
        });
    }

    private void redisDown(Exchange exchange, RouteHandler next, String key) {
        switch (failureMode) {
            case OPEN -> next.handle(exchange);
            case CLOSED -> exchange.respond(HttpResponseStatus.SERVICE_UNAVAILABLE, "Service Unavailable");
            default -> decide(exchange, next, local.tryConsume(key));
        }
    }

    private static void decide(Exchange exchange, RouteHandler next, ConsumptionProbe probe) {
        if (probe.isConsumed()) {
            next.handle(exchange);
            return;
        }
        long nanos = Math.max(1, probe.getNanosToWaitForRefill());
        FullHttpResponse r = exchange.textResponse(HttpResponseStatus.TOO_MANY_REQUESTS, "Too Many Requests");
        r.headers().set(HttpHeaderNames.RETRY_AFTER, Long.toString((nanos + 999_999_999L) / 1_000_000_000L));
        r.headers().set("X-Retry-In", GoDuration.format(Duration.ofNanos(nanos)));
        exchange.respond(r);
    }

    /** Sources with a bucket in this process, for tests. */
    long localSources() {
        return local == null ? 0 : local.size();
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.close();
        }
    }
}
