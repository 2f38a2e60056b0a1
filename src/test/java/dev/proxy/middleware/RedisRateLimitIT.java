package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * rateLimit with Redis: a real redis-server (with a password) on loopback and two data planes — two proxy replicas —
 * sharing one limit; and what happens while Redis is away.
 */
class RedisRateLimitIT {

    private static final String PASSWORD = "test-only-redis-password";

    private final HttpClient client = HttpClient.newHttpClient();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger redisLog = (Logger) LoggerFactory.getLogger(RedisBuckets.class);
    @TempDir
    Path dir;
    private RedisServer redis;
    private TestBackend backend;
    private DataPlane a;
    private DataPlane b;

    @BeforeEach
    void start() throws Exception {
        redis = new RedisServer(PASSWORD);
        backend = TestBackend.ok();
        a = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        b = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        log.start();
        redisLog.addAppender(log);
    }

    @AfterEach
    void stop() {
        redisLog.detachAppender(log);
        a.close();
        b.close();
        backend.close();
        redis.close();
    }

    private void configure(String password, String failureMode, DataPlane... planes) throws Exception {
        Path file = dir.resolve("redis-password");
        Files.writeString(file, password + "\n");
        for (DataPlane p : planes) {
            p.apply("""
                    http:
                      routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [limit]}}
                      services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                      middlewares:
                        limit:
                          rateLimit:
                            average: 4
                            period: 1h
                            burst: 4
                            redis: {endpoints: ["%s"], passwordFile: "%s", failureMode: %s, readTimeout: 2s}
                    """.formatted(backend.url(), redis.endpoint(), file, failureMode));
        }
    }

    private int status(DataPlane p) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(p.url("web", "/"))).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private long logged(Level level, String text) {
        return log.list.stream().filter(e -> e.getLevel() == level && e.getFormattedMessage().contains(text)).count();
    }

    @Test
    void twoReplicasShareOneLimit() throws Exception {
        configure(PASSWORD, "closed", a, b);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            statuses.add(status(i % 2 == 0 ? a : b));
        }
        assertThat(statuses).containsExactly(200, 200, 200, 200, 429, 429, 429, 429, 429, 429);
        assertThat(redis.command("EXISTS proxy:ratelimit:limit@file:127.0.0.1")).isEqualTo(":1");
        long ttl = Long.parseLong(redis.command("PTTL proxy:ratelimit:limit@file:127.0.0.1").substring(1));
        assertThat(ttl).isPositive(); // keys expire once their bucket would be full again
    }

    @Test
    void racingReplicasNeverAdmitMoreThanTheBucket() throws Exception {
        configure(PASSWORD, "closed", a, b);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> admitted = new ArrayList<>();
            for (DataPlane p : List.of(a, b)) {
                admitted.add(threads.submit(() -> {
                    HttpClient own = HttpClient.newHttpClient();
                    go.await();
                    int ok = 0;
                    for (int i = 0; i < 15; i++) {
                        if (own.send(HttpRequest.newBuilder(URI.create(p.url("web", "/"))).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            go.countDown();
            int total = admitted.get(0).get(60, TimeUnit.SECONDS) + admitted.get(1).get(60, TimeUnit.SECONDS);
            assertThat(total).isEqualTo(4);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void whileRedisIsAwayEachReplicaLimitsLocallyThenTheSharedLimitReturns() throws Exception {
        configure(PASSWORD, "local", a);
        assertThat(status(a)).isEqualTo(200); // through Redis
        redis.stop();
        List<Integer> away = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            away.add(status(a));
        }
        // the replica's own bucket, with the same numbers
        assertThat(away).containsExactly(200, 200, 200, 200, 429, 429, 429, 429);
        assertThat(logged(Level.WARN, "unreachable")).isEqualTo(1); // once per state change, not per request

        redis.start(); // empty: the shared bucket is full again, the local one is not
        await("the shared limit again").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(200))
                .until(() -> status(a) == 200);
        assertThat(logged(Level.INFO, "reachable again")).isEqualTo(1);
    }

    @Test
    void failClosedAnswers503AndFailOpenLetsThrough() throws Exception {
        configure(PASSWORD, "closed", a);
        configureOpen(b);
        redis.stop();
        for (int i = 0; i < 6; i++) {
            assertThat(status(a)).isEqualTo(503);
            assertThat(status(b)).isEqualTo(200);
        }
    }

    private void configureOpen(DataPlane p) throws Exception {
        configure(PASSWORD, "open", p);
    }

    @Test
    void aWrongPasswordNeverMeansNoLimit() throws Exception {
        configure("not-the-password", "closed", a);
        await().atMost(Duration.ofSeconds(10)).until(() -> logged(Level.WARN, "unreachable") == 1);
        for (int i = 0; i < 3; i++) {
            assertThat(status(a)).isEqualTo(503);
        }
        assertThat(log.list).allSatisfy(e -> assertThat(e.getFormattedMessage()).doesNotContain("not-the-password"));
    }
}
