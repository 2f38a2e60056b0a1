package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** redirectScheme and redirectRegex over real sockets. */
class RedirectTest {

    // "trusted" trusts X-Forwarded-* from this host (a load balancer in front); "web" trusts nobody.
    @RegisterExtension
    final OneRoute route = OneRoute.of(TestBackend::ok, Middlewares::new, "--entryPoints.trusted.address=127.0.0.1:0",
            "--entryPoints.trusted.forwardedHeaders.trustedIPs=127.0.0.1/32");

    @BeforeEach
    void routes() {
        route.proxy.apply("""
                http:
                  routers:
                    https: {rule: "PathPrefix(`/s`)", service: s, middlewares: [toHttps]}
                    https-permanent: {rule: "PathPrefix(`/p`)", service: s, middlewares: [toHttpsPermanent]}
                    port: {rule: "PathPrefix(`/port`)", service: s, middlewares: [toHttps8443]}
                    regex: {rule: "PathPrefix(`/old`) || PathPrefix(`/keep`)", service: s, middlewares: [moved]}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    toHttps: {redirectScheme: {scheme: https}}
                    toHttpsPermanent: {redirectScheme: {scheme: https, permanent: true}}
                    toHttps8443: {redirectScheme: {scheme: https, port: "8443"}}
                    moved: {redirectRegex: {regex: "^http://([^/:]+)(:\\\\d+)?/old/(?P<rest>.*)", replacement: "https://${1}/new/${rest}"}}
                """.formatted(route.backend.url()));
    }

    private HttpResponse<String> send(String entryPoint, String method, String path, String... headers) throws Exception {
        return route.sendTo(entryPoint, method, path, headers);
    }

    @ParameterizedTest(name = "{0} {1}: {2} {3}")
    @CsvSource(delimiter = '|', value = {
            "GET    | /s/a?b=1  | 302 | https://app.example/s/a?b=1",
            "HEAD   | /s/a      | 302 | https://app.example/s/a",
            "POST   | /s/a      | 307 | https://app.example/s/a",
            "GET    | /p/a      | 301 | https://app.example/p/a",
            "DELETE | /p/a      | 308 | https://app.example/p/a",
            "GET    | /port/x   | 302 | https://app.example:8443/port/x"})
    void redirectScheme(String method, String path, int status, String location) throws Exception {
        HttpResponse<String> r = send("web", method, path, "Host", "app.example:8000");
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.headers().firstValue("Location")).hasValue(location);
        assertThat(route.backend.requests).isEmpty();
    }

    @Test
    void forwardedProtoCountsOnlyFromTrustedPeers() throws Exception {
        assertThat(send("trusted", "GET", "/s/a", "X-Forwarded-Proto", "https").statusCode()).isEqualTo(200);
        assertThat(send("trusted", "GET", "/s/a", "X-Forwarded-Proto", "http").statusCode()).isEqualTo(302);
        // from an untrusted peer the header could stop the redirect to https: ignored
        assertThat(send("web", "GET", "/s/a", "X-Forwarded-Proto", "https").statusCode()).isEqualTo(302);
        // on https already but not on the configured port: redirected to it
        HttpResponse<String> r = send("trusted", "GET", "/port/x", "X-Forwarded-Proto", "https", "Host", "h.example");
        assertThat(r.headers().firstValue("Location")).hasValue("https://h.example:8443/port/x");
        assertThat(send("trusted", "GET", "/port/x", "X-Forwarded-Proto", "https", "Host", "h.example:8443").statusCode())
                .isEqualTo(200);
    }

    @Test
    void redirectRegexReplacesGroups() throws Exception {
        HttpResponse<String> r = send("web", "GET", "/old/a/b?c=d", "Host", "app.example:8000");
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location")).hasValue("https://app.example/new/a/b?c=d");
        assertThat(send("web", "GET", "/keep/a").statusCode()).isEqualTo(200); // no match: passes on
    }

    @Test
    void permanentRegexRedirectAndAnInvalidRegex() throws Exception {
        route.proxy.apply("""
                http:
                  routers:
                    r: {rule: "PathPrefix(`/`)", service: s, middlewares: [m]}
                    bad: {rule: "PathPrefix(`/bad`)", service: s, middlewares: [broken]}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    m: {redirectRegex: {regex: "/a$", replacement: "/b$$1", permanent: true}}
                    broken: {redirectRegex: {regex: "(unclosed", replacement: "/x"}}
                """.formatted(route.backend.url()));
        HttpResponse<String> r = send("web", "GET", "/a", "Host", "h.example");
        assertThat(r.statusCode()).isEqualTo(301);
        assertThat(r.headers().firstValue("Location")).hasValue("http://h.example/b$1");
        assertThat(route.proxy.routing.errors().get("bad@file")).startsWith("middleware broken@file: invalid regular expression");
    }
}
