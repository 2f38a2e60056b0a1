package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** stripPrefix, addPrefix and replacePath over real sockets: what the backend receives. */
class PathRewriteTest {

    @RegisterExtension
    final OneRoute route = OneRoute.standard();

    @BeforeEach
    void routes() {
        route.proxy.apply("""
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
                """.formatted(route.backend.url()));
    }

    private TestBackend.Seen get(String path, String... headers) throws Exception {
        assertThat(route.get(path, headers).statusCode()).isEqualTo(200);
        return route.backend.last();
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
