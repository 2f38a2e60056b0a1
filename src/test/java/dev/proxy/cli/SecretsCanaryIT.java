package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.Http;
import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged program with canary secrets in its install configuration (a Consul token and basic-auth password, AWS
 * keys) and in its dynamic configuration (a basic-auth user, a Redis password), logging at DEBUG in JSON with a JSON
 * access log that keeps every header: after traffic with the basic-auth password and the Consul token in request
 * headers, a call to every API endpoint, a metrics scrape, a health check and a shutdown, no canary appears in any log
 * line, access log line, API response, metrics or command output — in clear, base64 or URL-encoded.
 */
class SecretsCanaryIT {

    static final String CONSUL_TOKEN = "canary-consul-token-Q7f3a9c2";
    static final String CONSUL_PASSWORD = "canary-consul-password-W5e1d8b4";
    static final String AWS_ACCESS_KEY_ID = "AKIACANARYQ2W4E6R8T0";
    static final String AWS_SECRET_KEY = "canary/aws+secret/K9x2Lm4Np6Qr8St0Uv";
    static final String BASIC_PASSWORD = "canary-basic-password-Z3b8e6f1";
    static final String REDIS_PASSWORD = "canary-redis-password-Y1c4f7a9";

    @TempDir
    Path dir;

    private static String sha1Hash(String password) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-1").digest(password.getBytes(StandardCharsets.UTF_8));
        return "{SHA}" + Base64.getEncoder().encodeToString(digest);
    }

    /** Every form in which a canary could leak. */
    private static List<String> forms() throws Exception {
        List<String> forms = new ArrayList<>();
        for (String c : List.of(CONSUL_TOKEN, CONSUL_PASSWORD, AWS_ACCESS_KEY_ID, AWS_SECRET_KEY, BASIC_PASSWORD,
                REDIS_PASSWORD)) {
            forms.add(c);
            forms.add(URLEncoder.encode(c, StandardCharsets.UTF_8));
            forms.add(Base64.getEncoder().encodeToString(c.getBytes(StandardCharsets.UTF_8)));
        }
        forms.add(Base64.getEncoder().encodeToString(("admin:" + BASIC_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        forms.add(Base64.getEncoder().encodeToString(("proxy:" + CONSUL_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        forms.add(sha1Hash(BASIC_PASSWORD)); // the htpasswd entry: a hash helps offline guessing
        forms.add(sha1Hash(BASIC_PASSWORD).substring(5));
        return forms;
    }

    @Test
    void noCanaryAppearsAnywhere() throws Exception {
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            byte[] body = "ok".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        backend.start();
        int web = ProxyProcess.freePort();
        int internal = ProxyProcess.freePort();
        int closed = ProxyProcess.freePort(); // nothing listens: Consul, Redis and AWS calls fail on loopback
        Path accessLog = dir.resolve("access.log");
        Path dynamic = Files.writeString(dir.resolve("dynamic.yml"), """
                http:
                  routers:
                    app: {rule: "PathPrefix(`/app`)", service: app, middlewares: [auth]}
                    limited: {rule: "PathPrefix(`/limited`)", service: app, middlewares: [shared-limit]}
                  services:
                    app: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}
                  middlewares:
                    auth: {basicAuth: {users: ["admin:%s"]}}
                    shared-limit:
                      rateLimit:
                        average: 100
                        redis: {endpoints: ["127.0.0.1:%d"], password: "%s", dialTimeout: 200ms, readTimeout: 200ms}
                """.formatted(backend.getAddress().getPort(), sha1Hash(BASIC_PASSWORD), closed, REDIS_PASSWORD));
        Path install = Files.writeString(dir.resolve("proxy.yml"), """
                entryPoints:
                  web: {address: "127.0.0.1:%1$d"}
                  proxy: {address: "127.0.0.1:%2$d"}
                ping: {}
                api: {insecure: true}
                metrics: {prometheus: {}}
                accessLog:
                  filePath: "%3$s"
                  format: json
                  fields: {headers: {defaultMode: keep}}
                log: {level: DEBUG, format: json}
                providers:
                  providersThrottleDuration: 0s
                  file: {filename: "%4$s"}
                  registryCatalog:
                    refreshInterval: 1s
                    endpoint:
                      address: "127.0.0.1:%5$d"
                      token: "%6$s"
                      httpAuth: {username: proxy, password: "%7$s"}
                  clusterTasks:
                    region: us-east-1
                    clusters: [canary]
                    refreshSeconds: 1
                    accessKeyID: "%8$s"
                    secretAccessKey: "%9$s"
                """.formatted(web, internal, accessLog, dynamic, closed, CONSUL_TOKEN, CONSUL_PASSWORD,
                AWS_ACCESS_KEY_ID, AWS_SECRET_KEY));

        Map<String, String> haystacks = new LinkedHashMap<>();
        ProxyProcess proxy = aws(ProxyProcess.command("--configFile=" + install), closed).start();
        try {
            String api = "http://127.0.0.1:" + internal + "/api";
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> Http.get(api + "/http/routers/app@file").statusCode() == 200);
            // The Consul and AWS providers really ran with the canaries, and failed (nothing answers on loopback).
            for (String provider : List.of("registrycatalog", "clustertasks")) {
                await().atMost(Duration.ofSeconds(60)).until(() ->
                        ((Number) Http.object(Http.get(api + "/providers/" + provider)).get("failures")).intValue() > 0);
            }
            String app = "http://127.0.0.1:" + web;
            String good = "Basic " + Base64.getEncoder().encodeToString(("admin:" + BASIC_PASSWORD).getBytes(StandardCharsets.UTF_8));
            String bad = "Basic " + Base64.getEncoder().encodeToString(("admin:" + BASIC_PASSWORD + "-wrong").getBytes(StandardCharsets.UTF_8));
            assertThat(Http.get(app + "/app", "Authorization", good).statusCode()).isEqualTo(200);
            assertThat(Http.get(app + "/app?token=" + CONSUL_TOKEN, "Authorization", bad).statusCode()).isEqualTo(401);
            assertThat(Http.get(app + "/app", "X-Consul-Token", CONSUL_TOKEN, "Cookie", "s=" + REDIS_PASSWORD).statusCode())
                    .isEqualTo(401);
            assertThat(Http.get(app + "/limited").statusCode()).isEqualTo(200);

            List<String> paths = new ArrayList<>(List.of("/rawdata", "/overview", "/version", "/entrypoints",
                    "/http/routers", "/http/services", "/http/middlewares", "/providers"));
            for (String kind : List.of("routers", "services", "middlewares")) {
                Http.array(Http.get(api + "/http/" + kind)).forEach(i -> paths.add("/http/" + kind + "/" + i.get("name")));
            }
            Http.array(Http.get(api + "/entrypoints")).forEach(i -> paths.add("/entrypoints/" + i.get("name")));
            Http.array(Http.get(api + "/providers")).forEach(i -> {
                paths.add("/providers/" + i.get("name"));
                paths.add("/providers/" + i.get("name") + "/explain");
            });
            for (String p : paths) {
                HttpResponse<String> r = Http.get(api + p);
                haystacks.put("GET /api" + p + " (" + r.statusCode() + ")", r.body());
            }
            haystacks.put("GET /metrics", Http.get("http://127.0.0.1:" + internal + "/metrics").body());
            haystacks.put("GET /dashboard/app.js", Http.get("http://127.0.0.1:" + internal + "/dashboard/app.js").body());

            try (ProxyProcess hc = aws(ProxyProcess.command("healthcheck", "--configFile=" + install), closed).run()) {
                assertThat(hc.exitCode()).isZero();
                haystacks.put("proxy healthcheck", hc.transcript());
            }

            // Positive controls: the secrets were really configured, used and reported (masked).
            String raw = haystacks.get("GET /api/rawdata (200)");
            assertThat(raw).contains("\"users\":[\"****\"]").contains("\"password\":\"****\"");
            assertThat(haystacks.get("GET /api/providers/file (200)")).contains("\"filename\"");
            proxy.signal("TERM"); // graceful shutdown, which flushes the access log
            assertThat(proxy.awaitExit()).isZero();
        } finally {
            proxy.close();
            backend.stop(0);
        }
        String out = String.join("\n", proxy.stdout());
        haystacks.put("stdout", out);
        haystacks.put("stderr", String.join("\n", proxy.stderr()));
        haystacks.put("access log", Files.readString(accessLog));

        // Positive controls: JSON logs at DEBUG with the configuration dump, and an access log keeping headers.
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(Http.json(l)).isInstanceOf(Map.class));
        assertThat(out).contains("install configuration: ").contains("secretAccessKey=****").contains("token=****")
                .contains("provider registrycatalog: cannot read its source")
                .contains("provider clustertasks: cannot read its source");
        assertThat(haystacks.get("access log")).contains("\"request_Authorization\":\"REDACTED\"")
                .contains("\"request_X-Consul-Token\":\"REDACTED\"").contains("\"request_Cookie\":\"REDACTED\"")
                .contains("\"DownstreamStatus\":401");

        List<String> forms = forms();
        haystacks.forEach((where, text) -> {
            for (String form : forms) {
                assertThat(text).as("%s must not contain %s", where, form).doesNotContain(form);
            }
        });
    }

    /** Every AWS call (region, credentials, ECS, EC2) stays on loopback, where nothing answers. */
    private static ProxyProcess.Launch aws(ProxyProcess.Launch launch, int closedPort) {
        return launch.env("AWS_ENDPOINT_URL", "http://127.0.0.1:" + closedPort).env("AWS_EC2_METADATA_DISABLED", "true");
    }
}
