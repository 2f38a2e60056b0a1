package dev.proxy.api;

import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.provider.file.FileProvider;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Http;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A data plane with the API, metrics and a file provider whose configuration has one of each thing the API reports:
 * a working router, disabled routers (bad rule, unknown service, unbuildable middleware, a forbidden name), a router
 * whose only server is down, a service with one server down, a weighted service, and middlewares.
 */
final class ApiFixture implements AutoCloseable {

    static final String DOWN_URL = "http://127.0.0.1:1";

    final HttpServer backend;
    final String backendUrl;
    final Path file;
    final DataPlane proxy;

    ApiFixture(Path dir, String... extraFlags) {
        try {
            backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        backend.createContext("/", ex -> {
            byte[] body = "ok".getBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        backend.start();
        backendUrl = "http://127.0.0.1:" + backend.getAddress().getPort();
        try {
            file = Files.writeString(dir.resolve("dynamic.yml"), configuration(backendUrl));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> flags = new java.util.ArrayList<>(List.of("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure", "--metrics.prometheus",
                "--providers.file.filename=" + file, "--providers.providersThrottleDuration=0s"));
        flags.addAll(List.of(extraFlags));
        proxy = new DataPlane(flags.toArray(String[]::new));
        proxy.run(new FileProvider(proxy.install));
        // Ready when the file's routers are applied and the health checks have found the down servers.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            HttpResponse<String> r = api("/http/services/mixed@file");
            return r.statusCode() == 200 && r.body().contains("DOWN");
        });
    }

    static String configuration(String backend) {
        return """
                http:
                  routers:
                    web:
                      rule: "Host(`app.example`) && PathPrefix(`/`)"
                      entryPoints: [web]
                      middlewares: [auth, secure-headers]
                      service: app
                    broken:
                      rule: "Path(`/x`"
                      service: app
                    orphan:
                      rule: "Path(`/o`)"
                      service: missing
                    canary:
                      rule: "PathPrefix(`/canary`)"
                      service: split
                    dead:
                      rule: "PathPrefix(`/dead`)"
                      service: down
                    locked:
                      rule: "PathPrefix(`/locked`)"
                      service: app
                      middlewares: [bad-allow]
                    "evil@internal":
                      rule: "PathPrefix(`/`)"
                      service: app
                  services:
                    app:
                      loadBalancer:
                        servers: [{url: "%1$s"}]
                    down:
                      loadBalancer:
                        servers: [{url: "%2$s"}]
                        healthCheck: {path: /health, interval: 1s, timeout: 500ms}
                    mixed:
                      loadBalancer:
                        servers: [{url: "%1$s"}, {url: "%2$s"}]
                        healthCheck: {path: /health, interval: 1s, timeout: 500ms}
                    split:
                      weighted:
                        services: [{name: app, weight: 3}, {name: mixed, weight: 1}]
                  middlewares:
                    auth:
                      basicAuth:
                        users: ["admin:$apr1$H6uskkkW$IgXLP6ewTrSuBkTrqE8wj/"]
                    secure-headers:
                      headers:
                        customResponseHeaders: {X-Frame-Options: DENY}
                    bad-allow:
                      ipAllowList:
                        sourceRange: ["not-an-address"]
                """.formatted(backend, DOWN_URL);
    }

    HttpResponse<String> api(String path, String... headers) {
        return Http.get(proxy.url("proxy", "/api" + path), headers);
    }

    Map<String, Object> object(String path) {
        HttpResponse<String> r = api(path);
        if (r.statusCode() != 200) {
            throw new AssertionError(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return Http.object(r);
    }

    List<Map<String, Object>> array(String path) {
        HttpResponse<String> r = api(path);
        if (r.statusCode() != 200) {
            throw new AssertionError(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return Http.array(r);
    }

    @Override
    public void close() {
        proxy.close();
        backend.stop(0);
    }
}
