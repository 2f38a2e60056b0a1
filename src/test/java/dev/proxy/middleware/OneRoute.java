package dev.proxy.middleware;

import dev.proxy.testing.DataPlane;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The set-up most middleware tests share, as a JUnit extension: a backend, an in-JVM data plane with a {@code web}
 * entry point on loopback, and a client; fresh for each test. {@link #through} routes everything through one
 * middleware.
 */
final class OneRoute implements BeforeEachCallback, AfterEachCallback {

    final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private final Supplier<TestBackend> newBackend;
    private final Supplier<Middlewares> newMiddlewares;
    private final String[] flags;
    TestBackend backend;
    DataPlane proxy;

    private OneRoute(Supplier<TestBackend> newBackend, Supplier<Middlewares> newMiddlewares, String... extraFlags) {
        this.newBackend = newBackend;
        this.newMiddlewares = newMiddlewares;
        this.flags = new String[extraFlags.length + 1];
        flags[0] = "--entryPoints.web.address=127.0.0.1:0";
        System.arraycopy(extraFlags, 0, flags, 1, extraFlags.length);
    }

    /** A backend answering "ok" and a data plane with only the {@code web} entry point. */
    static OneRoute standard() {
        return new OneRoute(TestBackend::ok, Middlewares::new);
    }

    static OneRoute of(Supplier<TestBackend> backend, Supplier<Middlewares> middlewares, String... extraInstallFlags) {
        return new OneRoute(backend, middlewares, extraInstallFlags);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        backend = newBackend.get();
        proxy = new DataPlane(newMiddlewares.get(), flags);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        proxy.close();
        backend.close();
    }

    /** Routes every request on every entry point through the middleware {@code m} ({@code m@file}) to the backend. */
    void through(String middlewareYaml) {
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [m]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares: {m: %s}
                """.formatted(backend.url(), middlewareYaml));
    }

    HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        return sendTo("web", method, path, headers);
    }

    HttpResponse<String> sendTo(String entryPoint, String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(proxy.url(entryPoint, path)))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        return send("GET", path, headers);
    }
}
