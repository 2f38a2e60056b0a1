package dev.proxy.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.accesslog.AccessLog;
import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.metrics.ProxyMetrics;
import dev.proxy.provider.Providers;
import dev.proxy.server.ProxyServer;
import dev.proxy.testing.Http;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operating features as the program's DI container wires them: no cycles, handlers built on first use. */
class OperationsWiringTest {

    @TempDir
    Path dir;

    private static ApplicationContext context(String... flags) {
        InstallConfig config = RecordDecoder.decode(InstallConfig.class, CommandLineEntries.fromFlags(List.of(flags)));
        return ApplicationContext.builder().deduceEnvironment(false).banner(false).singletons(config).start();
    }

    @Test
    void apiMetricsAndAccessLogWiredTogether() throws Exception {
        Path dynamic = Files.writeString(dir.resolve("dynamic.yml"), """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s}}
                  services: {s: {loadBalancer: {servers: [{url: "http://127.0.0.1:1"}]}}}
                """);
        Path log = dir.resolve("access.log");
        try (ApplicationContext ctx = context("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure", "--metrics.prometheus",
                "--accessLog.filePath=" + log, "--providers.file.filename=" + dynamic,
                "--providers.providersThrottleDuration=0s")) {
            assertThat(ctx.findBean(ApiHandler.class)).isPresent();
            ProxyServer server = ctx.getBean(ProxyServer.class);
            server.start();
            ctx.getBean(Providers.class).start();
            String api = "http://127.0.0.1:" + server.entryPoints().get("proxy").port() + "/api";
            await().atMost(Duration.ofSeconds(10)).until(() -> Http.get(api + "/http/routers/r@file").statusCode() == 200);
            assertThat(Http.object(Http.get(api + "/providers/file"))).containsEntry("explainable", true);
            String web = "http://127.0.0.1:" + server.entryPoints().get("web").port();
            assertThat(Http.get(web + "/x").statusCode()).isEqualTo(502);
            await().atMost(Duration.ofSeconds(5)).until(() -> Files.exists(log) && Files.readString(log).contains("\"GET /x HTTP/1.1\" 502"));
            String metrics = Http.get("http://127.0.0.1:" + server.entryPoints().get("proxy").port() + "/metrics").body();
            assertThat(metrics).contains("proxy_entrypoint_requests_total{code=\"502\",entrypoint=\"web\",method=\"GET\"} 1")
                    .contains("proxy_provider_refreshes_total{provider=\"file\"}")
                    .contains("proxy_accesslog_dropped_lines_total 0");
            assertThat(ctx.getBean(ProxyMetrics.class)).isNotNull();
            assertThat(ctx.getBean(AccessLog.class).droppedLines()).isZero();
            server.entryPoints().values().forEach(ep -> ep.stopAccepting());
        }
    }

    @Test
    void nothingOfItExistsWhenNotConfigured() {
        try (ApplicationContext ctx = context("--entryPoints.web.address=127.0.0.1:0")) {
            assertThat(ctx.findBean(ApiHandler.class)).isEmpty();
            assertThat(ctx.findBean(DashboardHandler.class)).isEmpty();
            assertThat(ctx.findBean(ProxyMetrics.class)).isEmpty();
            assertThat(ctx.findBean(AccessLog.class)).isEmpty();
            assertThat(ctx.getBean(ProxyServer.class).entryPoints()).containsOnlyKeys("web");
        }
    }
}
