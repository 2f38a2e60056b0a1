package dev.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.provider.ConfigurationSink;
import dev.proxy.provider.PollingSupervisor;
import dev.proxy.provider.Provider;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Http;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Metrics scraped from {@code prometheus@internal} after real traffic. */
class MetricsTest {

    private HttpServer backend;
    private String backendUrl;
    private DataPlane proxy;

    @BeforeEach
    void backend() throws IOException {
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] body = "hello".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        backend.start();
        backendUrl = "http://127.0.0.1:" + backend.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        backend.stop(0);
    }

    private void start(String... extra) {
        String[] base = {"--entryPoints.web.address=127.0.0.1:0", "--entryPoints.proxy.address=127.0.0.1:0",
                "--metrics.prometheus"};
        String[] flags = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, flags, base.length, extra.length);
        proxy = new DataPlane(flags);
        proxy.apply("""
                http:
                  routers:
                    app: {rule: "PathPrefix(`/app`)", service: app}
                    dead: {rule: "PathPrefix(`/dead`)", service: dead}
                  services:
                    app: {loadBalancer: {servers: [{url: "%s"}]}}
                    dead:
                      loadBalancer:
                        servers: [{url: "http://127.0.0.1:1"}]
                        healthCheck: {path: /, interval: 1s, timeout: 500ms}
                """.formatted(backendUrl));
    }

    private Scrape scrape() {
        HttpResponse<String> r = Http.get(proxy.url("proxy", "/metrics"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        return Scrape.parse(r.body());
    }

    private void traffic() {
        for (int i = 0; i < 3; i++) {
            assertThat(Http.get(proxy.url("web", "/app/x")).statusCode()).isEqualTo(200);
        }
        assertThat(Http.send("POST", proxy.url("web", "/app/form")).statusCode()).isEqualTo(200);
        assertThat(Http.get(proxy.url("web", "/nowhere")).statusCode()).isEqualTo(404);
        assertThat(Http.get(proxy.url("web", "/nowhere/else")).statusCode()).isEqualTo(404);
        assertThat(Http.send("BREW", proxy.url("web", "/app/coffee")).statusCode()).isEqualTo(200);
    }

    @Test
    void requestsByEntryPointAndServiceWithDurationHistograms() {
        start();
        traffic();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                scrape().value("proxy_entrypoint_requests_total", "entrypoint", "web", "code", "404", "method", "GET") != null);
        Scrape s = scrape();
        assertThat(s.value("proxy_entrypoint_requests_total", "entrypoint", "web", "code", "200", "method", "GET")).isEqualTo(3.0);
        assertThat(s.value("proxy_entrypoint_requests_total", "entrypoint", "web", "code", "200", "method", "POST")).isEqualTo(1.0);
        assertThat(s.value("proxy_entrypoint_requests_total", "entrypoint", "web", "code", "404", "method", "GET")).isEqualTo(2.0);
        // Unknown methods share one label value, so a client cannot create series at will.
        assertThat(s.value("proxy_entrypoint_requests_total", "entrypoint", "web", "method", "EXTENSION_METHOD")).isEqualTo(1.0);
        assertThat(s.find("proxy_entrypoint_requests_total", "method", "BREW")).isEmpty();
        assertThat(s.value("proxy_service_requests_total", "service", "app@file", "code", "200", "method", "GET")).isEqualTo(3.0);
        // The 404s had no service; routers are off by default (one series set per router can be many).
        assertThat(s.find("proxy_service_requests_total", "code", "404")).isEmpty();
        assertThat(s.find("proxy_router_requests_total")).isEmpty();
        // Histogram: every bucket of the default set, cumulative, and the count matching the counter.
        assertThat(s.find("proxy_entrypoint_request_duration_seconds_bucket", "entrypoint", "web", "code", "200",
                "method", "GET")).extracting(x -> x.labels().get("le")).containsExactly("0.1", "0.3", "1.2", "5.0", "+Inf");
        assertThat(s.value("proxy_entrypoint_request_duration_seconds_bucket", "entrypoint", "web", "code", "200",
                "method", "GET", "le", "+Inf")).isEqualTo(3.0);
        assertThat(s.value("proxy_entrypoint_request_duration_seconds_count", "entrypoint", "web", "code", "200",
                "method", "GET")).isEqualTo(3.0);
        assertThat(s.value("proxy_service_request_duration_seconds_sum", "service", "app@file", "code", "200",
                "method", "GET")).isPositive();
        // Scrapes are internal traffic: not counted.
        assertThat(s.find("proxy_entrypoint_requests_total", "entrypoint", "proxy")).isEmpty();
    }

    @Test
    void routerLabelsCustomBucketsAndInternalsOnRequest() {
        start("--metrics.prometheus.addRoutersLabels", "--metrics.prometheus.addEntryPointsLabels=false",
                "--metrics.prometheus.buckets=0.05,0.5", "--metrics.addInternals");
        traffic();
        scrape();
        Scrape s = scrape();
        assertThat(s.value("proxy_router_requests_total", "router", "app@file", "service", "app@file", "code", "200",
                "method", "GET")).isEqualTo(3.0);
        assertThat(s.find("proxy_router_request_duration_seconds_bucket", "router", "app@file", "method", "GET"))
                .extracting(x -> x.labels().get("le")).containsExactly("0.05", "0.5", "+Inf");
        assertThat(s.find("proxy_entrypoint_requests_total")).isEmpty();
        assertThat(s.value("proxy_service_requests_total", "service", "prometheus@internal", "code", "200",
                "method", "GET")).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void serverHealthConnectionsAndReloads() throws IOException {
        start();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                Double.valueOf(0).equals(scrape().value("proxy_service_server_up", "service", "dead@file")));
        Scrape s = scrape();
        assertThat(s.value("proxy_service_server_up", "service", "app@file", "url", backendUrl)).isEqualTo(1.0);
        assertThat(s.value("proxy_service_server_up", "service", "dead@file", "url", "http://127.0.0.1:1")).isEqualTo(0.0);
        assertThat(s.value("proxy_config_reloads_total")).isEqualTo(1.0);
        assertThat(s.value("proxy_config_last_reload_success_timestamp_seconds"))
                .isCloseTo(System.currentTimeMillis() / 1000.0, org.assertj.core.data.Offset.offset(60.0));

        double before = s.value("proxy_open_connections", "entrypoint", "web");
        try (Socket a = new Socket("127.0.0.1", proxy.port("web")); Socket b = new Socket("127.0.0.1", proxy.port("web"))) {
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    scrape().value("proxy_open_connections", "entrypoint", "web") == before + 2);
        }
        await().atMost(Duration.ofSeconds(5)).until(() ->
                scrape().value("proxy_open_connections", "entrypoint", "web") == before);

        proxy.apply("http: {}");
        Scrape after = scrape();
        assertThat(after.value("proxy_config_reloads_total")).isEqualTo(2.0);
        assertThat(after.find("proxy_service_server_up")).isEmpty();
    }

    @Test
    void routerAndServiceSeriesGoAwayWithTheirConfiguration() {
        start("--metrics.prometheus.addRoutersLabels");
        traffic();
        assertThat(scrape().find("proxy_router_requests_total", "router", "app@file")).isNotEmpty();
        proxy.apply("http: {}");
        Scrape s = scrape();
        assertThat(s.find("proxy_router_requests_total", "router", "app@file")).isEmpty();
        assertThat(s.find("proxy_service_requests_total", "service", "app@file")).isEmpty();
        assertThat(s.value("proxy_entrypoint_requests_total", "entrypoint", "web", "code", "200", "method", "GET"))
                .isEqualTo(3.0);
    }

    @Test
    void providerRefreshesFailuresAndDurations() {
        start();
        AtomicInteger calls = new AtomicInteger();
        proxy.run(new Provider() {
            private PollingSupervisor supervisor;

            @Override
            public String name() {
                return "flaky";
            }

            @Override
            public void start(ConfigurationSink sink) {
                supervisor = new PollingSupervisor("flaky", Duration.ofHours(1), () -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IOException("connection refused");
                    }
                    return DynamicConfig.EMPTY;
                }, sink);
                supervisor.start();
            }

            @Override
            public void stop() {
                supervisor.stop();
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Double.valueOf(1).equals(scrape().value("proxy_provider_refreshes_total", "provider", "flaky")));
        Scrape s = scrape();
        assertThat(s.value("proxy_provider_refresh_failures_total", "provider", "flaky")).isEqualTo(1.0);
        assertThat(s.value("proxy_provider_refresh_duration_seconds_count", "provider", "flaky")).isEqualTo(2.0);
        assertThat(s.value("proxy_provider_refresh_duration_seconds_sum", "provider", "flaky")).isNotNegative();
        assertThat(s.value("proxy_provider_last_refresh_success_timestamp_seconds", "provider", "flaky")).isPositive();
    }

    @Test
    void jvmAndProcessMetricsAndOpenMetricsOnRequest() {
        start();
        Scrape s = scrape();
        assertThat(s.find("jvm_memory_used_bytes")).isNotEmpty();
        assertThat(s.find("process_uptime_seconds")).isNotEmpty();
        HttpResponse<String> om = Http.get(proxy.url("proxy", "/metrics"), "Accept", "application/openmetrics-text");
        assertThat(om.headers().firstValue("Content-Type")).hasValueSatisfying(v -> v.startsWith("application/openmetrics-text"));
        assertThat(om.body()).endsWith("# EOF\n");
        assertThat(Http.send("POST", proxy.url("proxy", "/metrics")).statusCode()).isEqualTo(405);
    }
}
