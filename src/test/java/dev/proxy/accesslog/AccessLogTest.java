package dev.proxy.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Http;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Access log lines written for real requests through the data plane. */
class AccessLogTest {

    @TempDir
    Path dir;
    private HttpServer backend;
    private String backendUrl;
    private DataPlane proxy;
    private Path log;

    @BeforeEach
    void backend() throws IOException {
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            byte[] body = "hello".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        backend.start();
        backendUrl = "http://127.0.0.1:" + backend.getAddress().getPort();
        log = dir.resolve("logs/access.log");
    }

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
        backend.stop(0);
    }

    private void start(String... extra) {
        List<String> flags = new java.util.ArrayList<>(List.of("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.proxy.address=127.0.0.1:0", "--ping", "--accessLog.filePath=" + log));
        flags.addAll(List.of(extra));
        proxy = new DataPlane(flags.toArray(String[]::new));
        proxy.apply("""
                http:
                  routers:
                    app: {rule: "PathPrefix(`/app`)", service: app}
                  services:
                    app: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(backendUrl));
    }

    private List<String> lines(int expected) {
        await().atMost(Duration.ofSeconds(5)).until(() -> Files.exists(log) && Files.readAllLines(log).size() >= expected);
        try {
            List<String> lines = Files.readAllLines(log);
            assertThat(lines).hasSize(expected);
            return lines;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void commonFormatLinesMatchTheRequests() {
        start();
        Http.get(proxy.url("web", "/app/x?q=1"), "User-Agent", "test-agent/1.0", "Referer", "https://ref.example/");
        Http.get(proxy.url("web", "/nowhere"), "User-Agent", "quote\" 200 0 \"forged");
        List<String> lines = lines(2);
        String time = "\\[\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} \\+0000]";
        assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /app/x\\?q=1 HTTP/1\\.1\" 200 5 "
                + "\"https://ref\\.example/\" \"test-agent/1\\.0\" 1 \"app@file\" \"" + backendUrl.replace(".", "\\.")
                + "\" \\d+ms");
        // A quote in a header cannot end the field and forge the rest of the line.
        assertThat(lines.get(1)).matches("127\\.0\\.0\\.1 - - " + time + " \"GET /nowhere HTTP/1\\.1\" 404 18 \"-\" "
                + "\"quote\\\\\" 200 0 \\\\\"forged\" 2 \"-\" \"-\" \\d+ms");
    }

    @Test
    void jsonLinesWithTraefikFieldsAndRedactedCredentials() {
        start("--accessLog.format=json", "--accessLog.fields.headers.defaultMode=keep",
                "--accessLog.fields.headers.names.X-Trace=drop");
        Http.get(proxy.url("web", "/app/json"), "Authorization", "Basic YWRtaW46c2VjcmV0", "Cookie", "session=abc123",
                "X-Trace", "t-1", "X-Custom", "kept", "User-Agent", "agent/2");
        String line = lines(1).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) Http.json(line);
        assertThat(entry).containsEntry("ClientHost", "127.0.0.1").containsEntry("DownstreamStatus", 200)
                .containsEntry("DownstreamContentSize", 5).containsEntry("EntryPointName", "web")
                .containsEntry("RequestMethod", "GET").containsEntry("RequestPath", "/app/json")
                .containsEntry("RequestProtocol", "HTTP/1.1").containsEntry("RequestHost", "127.0.0.1")
                .containsEntry("RequestPort", String.valueOf(proxy.port("web")))
                .containsEntry("RouterName", "app@file").containsEntry("ServiceName", "app@file")
                .containsEntry("ServiceURL", backendUrl).containsEntry("RequestCount", 1)
                .containsEntry("request_Authorization", "REDACTED").containsEntry("request_Cookie", "REDACTED")
                .containsEntry("request_X-Custom", "kept").containsEntry("request_User-Agent", "agent/2")
                .doesNotContainKey("request_X-Trace").containsEntry("level", "info");
        assertThat((Integer) entry.get("Duration")).isPositive();
        assertThat(line).doesNotContain("YWRtaW46c2VjcmV0", "abc123");
    }

    @Test
    void headersAreDroppedByDefaultInJson() {
        start("--accessLog.format=json");
        Http.get(proxy.url("web", "/app/x"), "X-Custom", "v");
        assertThat(lines(1).get(0)).doesNotContain("request_");
    }

    @Test
    void internalTrafficOnlyWithAddInternals() {
        start();
        Http.get(proxy.url("proxy", "/ping"));
        Http.get(proxy.url("web", "/app/after-ping"));
        assertThat(lines(1).get(0)).contains("/app/after-ping");
        proxy.close();
        proxy = null;
        log = dir.resolve("internals.log");
        start("--accessLog.addInternals");
        Http.get(proxy.url("proxy", "/ping"));
        assertThat(lines(1).get(0)).contains("\"GET /ping HTTP/1.1\" 200 2").contains("\"ping@internal\"");
    }
}
