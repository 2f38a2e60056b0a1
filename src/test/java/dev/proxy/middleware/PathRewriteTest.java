package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** stripPrefix, addPrefix and replacePath over real sockets: what the backend receives. */
class PathRewriteTest {

    private final HttpClient client = HttpClient.newHttpClient();
    private TestBackend backend;
    private DataPlane proxy;

    @BeforeEach
    void start() {
        backend = TestBackend.ok();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        proxy.apply("""
                http:
                  routers:
                    strip: {rule: "PathPrefix(`/api`) || PathPrefix(`/static`)", service: s, middlewares: [strip]}
                    add: {rule: "PathPrefix(`/add`)", service: s, middlewares: [add]}
                    replace: {rule: "PathPrefix(`/old`)", service: s, middlewares: [replace]}
                    both: {rule: "PathPrefix(`/both`)", service: s, middlewares: [stripBoth, add]}
                    plain: {rule: "PathPrefix(`/plain`)", service: s}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    strip: {stripPrefix: {prefixes: [/static, /api]}}
                    stripBoth: {stripPrefix: {prefixes: [/both]}}
                    add: {addPrefix: {prefix: /v1}}
                    replace: {replacePath: {path: /new/place}}
                """.formatted(backend.url()));
    }

    @AfterEach
    void stop() {
        proxy.close();
        backend.close();
    }

    private TestBackend.Seen get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(proxy.url("web", path)));
        if (headers.length > 0) {
            b.headers(headers);
        }
        assertThat(client.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        return backend.last();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "/api/users?x=1      | /users?x=1         | /api",
            "/api                | /                  | /api",
            "/apiv2/users        | /v2/users          | /api",     // a raw string prefix, as PathPrefix matches
            "/static/app.js      | /app.js            | /static",
            "/add/x?q=a%20b      | /v1/add/x?q=a%20b  | ",
            "/both/x             | /v1/x              | /both",    // strip, then add
            "/plain/x            | /plain/x           | "})
    void forwardedPathAndPrefix(String requested, String forwarded, String prefix) throws Exception {
        TestBackend.Seen seen = get(requested, "X-Forwarded-Prefix", "/forged");
        assertThat(seen.uri()).isEqualTo(forwarded);
        // the client's own X-Forwarded-Prefix never reaches the backend from an untrusted peer
        assertThat(seen.header("X-Forwarded-Prefix")).isEqualTo(prefix);
    }

    @Test
    void replacePathKeepsTheQueryAndTellsTheOriginal() throws Exception {
        TestBackend.Seen seen = get("/old/thing?id=7");
        assertThat(seen.uri()).isEqualTo("/new/place?id=7");
        assertThat(seen.header("X-Replaced-Path")).isEqualTo("/old/thing");
    }
}
