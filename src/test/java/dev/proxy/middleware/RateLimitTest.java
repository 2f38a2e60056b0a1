package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.bucket4j.TimeMeter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** rateLimit over real sockets with a fake clock: exact admissions, Retry-After, sources, races, bounded memory. */
class RateLimitTest {

    /** A clock that moves only when told. */
    static final class FakeClock implements TimeMeter {
        final AtomicLong nanos = new AtomicLong(1_000_000_000L);

        void advance(Duration d) {
            nanos.addAndGet(d.toNanos());
        }

        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }

    private final FakeClock clock = new FakeClock();
    @RegisterExtension
    final OneRoute route = OneRoute.of(TestBackend::ok, () -> new Middlewares(clock));

    private void configure(String rateLimit) {
        route.through("{rateLimit: " + rateLimit + "}");
    }

    private HttpResponse<String> get(String... headers) throws Exception {
        return route.get("/", headers);
    }

    private int status(String... headers) throws Exception {
        return get(headers).statusCode();
    }

    @Test
    void admitsBurstThenAveragePerPeriod() throws Exception {
        configure("{average: 2, period: 1s, burst: 3}");
        for (int i = 0; i < 3; i++) {
            assertThat(status()).as("burst request %d", i).isEqualTo(200);
        }
        HttpResponse<String> limited = get();
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("1"); // 0.5 s, rounded up
        assertThat(limited.headers().firstValue("X-Retry-In")).hasValue("500ms");

        clock.advance(Duration.ofMillis(499));
        assertThat(status()).isEqualTo(429);
        clock.advance(Duration.ofMillis(1)); // one token per 500 ms
        assertThat(status()).isEqualTo(200);
        assertThat(status()).isEqualTo(429);

        clock.advance(Duration.ofSeconds(1)); // a full period: exactly `average` more
        assertThat(status()).isEqualTo(200);
        assertThat(status()).isEqualTo(200);
        assertThat(status()).isEqualTo(429);

        clock.advance(Duration.ofMinutes(10)); // a long pause refills to `burst`, not beyond
        for (int i = 0; i < 3; i++) {
            assertThat(status()).isEqualTo(200);
        }
        assertThat(status()).isEqualTo(429);
        assertThat(route.backend.requests).hasSize(3 + 1 + 2 + 3);
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUp() throws Exception {
        configure("{average: 1, period: 10s}");
        assertThat(status()).isEqualTo(200);
        assertThat(get().headers().firstValue("Retry-After")).hasValue("10");
        clock.advance(Duration.ofMillis(8_500));
        assertThat(get().headers().firstValue("Retry-After")).hasValue("2"); // 1.5 s left
        clock.advance(Duration.ofMillis(1_499));
        assertThat(get().headers().firstValue("Retry-After")).hasValue("1"); // 1 ms left
        clock.advance(Duration.ofMillis(1));
        assertThat(status()).isEqualTo(200);
    }

    @Test
    void averageZeroMeansNoLimit() throws Exception {
        configure("{average: 0, burst: 1}");
        for (int i = 0; i < 20; i++) {
            assertThat(status()).isEqualTo(200);
        }
    }

    @Test
    void eachSourceHasItsOwnBucket() throws Exception {
        configure("{average: 1, period: 1m, sourceCriterion: {requestHeaderName: X-Api-Key}}");
        assertThat(status("X-Api-Key", "a")).isEqualTo(200);
        assertThat(status("X-Api-Key", "a")).isEqualTo(429);
        assertThat(status("X-Api-Key", "b")).isEqualTo(200);
        assertThat(status()).isEqualTo(200); // requests without the header share one bucket
        assertThat(status()).isEqualTo(429);
    }

    @Test
    void requestHostAsSource() throws Exception {
        configure("{average: 1, period: 1m, sourceCriterion: {requestHost: true}}");
        assertThat(status("Host", "a.example")).isEqualTo(200);
        assertThat(status("Host", "A.example:80")).isEqualTo(429); // same host: case and port do not count
        assertThat(status("Host", "b.example")).isEqualTo(200);
    }

    @Test
    void ipStrategyDepthPicksTheForwardedAddress() throws Exception {
        configure("{average: 1, period: 1m, sourceCriterion: {ipStrategy: {depth: 2}}}");
        // depth 2: the second address from the right (the right one was added by a trusted front proxy)
        assertThat(status("X-Forwarded-For", "127.0.0.7, 127.0.0.9")).isEqualTo(200);
        assertThat(status("X-Forwarded-For", "127.0.0.1, 127.0.0.7, 127.0.0.8")).isEqualTo(429);
        assertThat(status("X-Forwarded-For", "127.0.0.8, 127.0.0.9")).isEqualTo(200);
    }

    @Test
    void peerAddressIsTheDefaultSourceAndForwardedForIsIgnored() throws Exception {
        configure("{average: 1, period: 1m}");
        assertThat(status("X-Forwarded-For", "127.0.0.5")).isEqualTo(200);
        assertThat(status("X-Forwarded-For", "127.0.0.6")).isEqualTo(429); // a client cannot dodge by writing XFF
    }

    @Test
    void twoRacingClientsNeverGetMoreThanTheBucket() throws Exception {
        int burst = 40;
        configure("{average: 1, period: 1h, burst: " + burst + "}");
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> admitted = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                admitted.add(threads.submit(() -> {
                    HttpClient own = HttpClient.newHttpClient(); // its own connections
                    go.await();
                    int ok = 0;
                    for (int i = 0; i < burst; i++) {
                        if (own.send(HttpRequest.newBuilder(URI.create(route.proxy.url("web", "/"))).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            go.countDown();
            int total = admitted.get(0).get(60, TimeUnit.SECONDS) + admitted.get(1).get(60, TimeUnit.SECONDS);
            assertThat(total).isEqualTo(burst);
            assertThat(route.backend.requests).hasSize(burst);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void bucketsSurviveAReloadThatDoesNotChangeTheLimit() throws Exception {
        configure("{average: 1, period: 1m}");
        assertThat(status()).isEqualTo(200);
        configure("{average: 1, period: 1m}"); // e.g. a discovery change elsewhere
        assertThat(status()).isEqualTo(429);
        configure("{average: 2, period: 1m}"); // a new limit starts afresh
        assertThat(status()).isEqualTo(200);
    }

    @Test
    void memoryIsBoundedWith100000Sources() {
        LocalBuckets buckets = new LocalBuckets(1, Duration.ofMinutes(1), 1, clock, LocalBuckets.MAX_SOURCES);
        for (int i = 0; i < 100_000; i++) {
            assertThat(buckets.tryConsume("source-" + i).isConsumed()).isTrue();
        }
        assertThat(buckets.size()).isLessThanOrEqualTo(LocalBuckets.MAX_SOURCES).isGreaterThan(LocalBuckets.MAX_SOURCES / 2);
        // An idle bucket is dropped once it would be full again: memory returns when the sources go away.
        clock.advance(Duration.ofMinutes(3));
        assertThat(buckets.size()).isZero();
    }

    @Test
    void memoryIsBoundedThroughTheMiddleware() throws Exception {
        configure("{average: 1, period: 1m, sourceCriterion: {requestHeaderName: X-Api-Key}}");
        for (int i = 0; i < 300; i++) {
            assertThat(status("X-Api-Key", "k" + i)).isEqualTo(200);
        }
        RateLimitMiddleware m = (RateLimitMiddleware) route.proxy.middlewares.current("m@file");
        assertThat(m.localSources()).isEqualTo(300);
        clock.advance(Duration.ofMinutes(3));
        assertThat(m.localSources()).isZero();
    }

    @Test
    void aRedisPasswordFileNamedByATagIsNotRead() throws Exception {
        route.proxy.apply("clustertasks", """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [limit]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    limit: {rateLimit: {average: 1, redis: {endpoints: ["127.0.0.1:1"], passwordFile: /etc/hostname}}}
                """.formatted(route.backend.url()));
        assertThat(route.proxy.routing.errors()).containsEntry("r@clustertasks", "middleware limit@clustertasks: "
                + "redis.passwordFile and redis.passwordEnv are only honoured in the file provider's configuration");
        assertThat(status()).isEqualTo(404);
    }
}
