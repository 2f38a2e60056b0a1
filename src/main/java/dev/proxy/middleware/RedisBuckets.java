package dev.proxy.middleware;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.RedisApi;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Token buckets kept in Redis, shared by every replica that points at the same server (Bucket4j's Lettuce
 * integration: a compare-and-swap Lua script per check, so concurrent replicas never both take the last token).
 * Keys are {@code proxy:ratelimit:<middleware>:<source>} and expire once their bucket would be full again.
 *
 * <p>Nothing here blocks: the connection is opened asynchronously (a Redis that is down when the configuration
 * loads does not fail it), checks return futures, and while the connection is down commands are rejected at once
 * (Lettuce {@code REJECT_COMMANDS}) instead of queuing until the timeout — the caller applies its failure mode.
 * Time comes from each replica's wall clock (Bucket4j's client-side clock), so replicas need NTP-synchronised clocks.
 */
final class RedisBuckets implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisBuckets.class);
    private static final long RECONNECT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final String endpoint;
    private final RedisClient client;
    private final RedisURI uri;
    private final BucketConfiguration bucket;
    private final String keyPrefix;
    private final AsyncProxyManager<byte[]> buckets;
    private final AtomicBoolean up = new AtomicBoolean(true); // assumed until shown otherwise: the first failure logs
    private volatile StatefulRedisConnection<byte[], byte[]> connection;
    private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connecting; // guarded by this
    private long lastAttempt; // guarded by this
    private volatile boolean closed;

    RedisBuckets(String middlewareName, String endpoint, String username, String password, int db,
                 Duration dialTimeout, Duration readTimeout, BucketConfiguration bucket, ClientResources resources) {
        this.name = middlewareName;
        this.endpoint = endpoint;
        this.bucket = bucket;
        this.keyPrefix = "proxy:ratelimit:" + middlewareName + ":";
        int colon = endpoint.lastIndexOf(':');
        String host = endpoint.substring(0, colon);
        RedisURI.Builder b = RedisURI.Builder.redis(host.startsWith("[") ? host.substring(1, host.length() - 1) : host,
                        Integer.parseInt(endpoint.substring(colon + 1)))
                .withDatabase(db).withTimeout(readTimeout);
        if (!password.isEmpty() && username.isEmpty()) {
            b.withPassword(password.toCharArray());
        } else if (!password.isEmpty()) {
            b.withAuthentication(username, password.toCharArray());
        }
        this.uri = b.build();
        this.client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(dialTimeout).build())
                .timeoutOptions(TimeoutOptions.enabled(readTimeout))
                .build());
        this.buckets = new LettuceBasedProxyManager<>(new Bucket4jLettuce.LettuceBasedProxyManagerBuilder<>(api())
                .requestTimeout(readTimeout)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(1))))
                .asAsync();
        connect();
    }

    /**
     * Takes a token from the source's shared bucket. Before the first connection is up, the check waits for the
     * connection attempt (at most {@code dialTimeout}); while the connection is down it fails at once.
     */
    CompletableFuture<ConsumptionProbe> tryConsume(String source) {
        StatefulRedisConnection<byte[], byte[]> c = connection;
        if (c == null) {
            return connect().thenCompose(ready -> consume(source));
        }
        if (!c.isOpen()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("disconnected; Lettuce is reconnecting"));
        }
        return consume(source);
    }

    private CompletableFuture<ConsumptionProbe> consume(String source) {
        try {
            return buckets.builder().build(key(source), bucket).tryConsumeAndReturnRemaining(1);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Records the outcome of a check; the state changes are logged once each, not per request. */
    void outcome(Throwable error) {
        if (error == null) {
            if (up.compareAndSet(false, true)) {
                LOG.info("rateLimit {}: Redis {} reachable again; the shared limit applies", name, endpoint);
            }
        } else if (up.compareAndSet(true, false)) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            // The cause's class and message only: Lettuce messages name the endpoint, never the password.
            LOG.warn("rateLimit {}: Redis {} unreachable ({}); applying the failure mode until it is back", name,
                    endpoint, cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
        }
    }

    /**
     * The connection attempt in flight, or a new one; a failed attempt is not repeated for a second, so a Redis that
     * is down costs each request one immediate failure, not one connection attempt. Once connected, Lettuce
     * reconnects by itself.
     */
    private synchronized CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect() {
        if (connecting != null && (!connecting.isDone() || !connecting.isCompletedExceptionally())) {
            return connecting;
        }
        long now = System.nanoTime();
        if (closed || connecting != null && now - lastAttempt < RECONNECT_INTERVAL_NANOS) {
            return CompletableFuture.failedFuture(new RedisConnectionException("not connected"));
        }
        lastAttempt = now;
        connecting = client.connectAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture().thenApply(c -> {
            if (closed) {
                c.closeAsync();
                throw new RedisConnectionException("closed");
            }
            connection = c; // before any check waiting for this attempt runs
            return c;
        });
        connecting.whenComplete((c, error) -> outcome(error));
        return connecting;
    }

    private byte[] key(String source) {
        String s = source;
        if (s.length() > 200) {
            // Long sources (header values) are hashed: bounded key size whatever the client sends.
            try {
                s = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return (keyPrefix + s).getBytes(StandardCharsets.UTF_8);
    }

    private RedisApi<byte[]> api() {
        return new Commands<>(() -> connection);
    }

    /**
     * The three commands Bucket4j needs, sent on the current connection. Generic in the key type on purpose: Bucket4j
     * passes key arrays created as {@code Object[]}, which a class fixed to {@code byte[][]} would fail to cast.
     */
    private static final class Commands<K> implements RedisApi<K> {
        private final Supplier<StatefulRedisConnection<K, byte[]>> connection;

        Commands(Supplier<StatefulRedisConnection<K, byte[]>> connection) {
            this.connection = connection;
        }

        @Override
        public <V> RedisFuture<V> eval(String script, ScriptOutputType type, K[] keys, byte[][] args) {
            return connection.get().async().eval(script, type, keys, args);
        }

        @Override
        public RedisFuture<byte[]> get(K key) {
            return connection.get().async().get(key);
        }

        @Override
        public RedisFuture<?> delete(K key) {
            return connection.get().async().del(key);
        }
    }

    @Override
    public void close() {
        closed = true;
        client.shutdownAsync(0, 2, TimeUnit.SECONDS); // closes its connections and stops reconnecting
    }
}
