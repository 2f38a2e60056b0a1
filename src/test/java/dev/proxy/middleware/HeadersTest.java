package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** headers over real sockets: custom request and response headers, CORS preflight and simple requests. */
class HeadersTest {

    @RegisterExtension
    final OneRoute route = OneRoute.of(() -> TestBackend.with(ex -> {
        ex.getResponseHeaders().set("X-Powered-By", "backend");
        TestBackend.send(ex, 200, "text/plain", "ok".getBytes());
    }), Middlewares::new);

    private void configure(String headers) {
        route.through("{headers: " + headers + "}");
    }

    private HttpResponse<String> send(String method, String... headers) throws Exception {
        return route.send(method, "/x", headers);
    }

    @Test
    void customRequestAndResponseHeaders() throws Exception {
        configure("""
                {customRequestHeaders: {X-Added: "yes", X-Removed: "", X-Forwarded-Proto: https},
                 customResponseHeaders: {X-Frame-Options: DENY, X-Powered-By: ""}}""");
        HttpResponse<String> r = send("GET", "X-Removed", "from client", "X-Added", "from client");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(r.headers().firstValue("X-Powered-By")).isEmpty();
        TestBackend.Seen seen = route.backend.last();
        assertThat(seen.headers().get("X-added")).containsExactly("yes");
        assertThat(seen.header("X-Removed")).isNull();
        // configured, so it wins over the proxy's own X-Forwarded-Proto for an untrusted peer
        assertThat(seen.header("X-Forwarded-Proto")).isEqualTo("https");
    }

    @Test
    void preflightIsAnsweredByTheProxy() throws Exception {
        configure("""
                {accessControlAllowOriginList: ["https://app.example"], accessControlAllowMethods: [GET, put],
                 accessControlAllowHeaders: [Content-Type, X-Token], accessControlMaxAge: 600,
                 accessControlAllowCredentials: true}""");
        HttpResponse<String> r = send("OPTIONS", "Origin", "https://app.example",
                "Access-Control-Request-Method", "PUT");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example");
        assertThat(r.headers().firstValue("Access-Control-Allow-Methods")).hasValue("GET,PUT");
        assertThat(r.headers().firstValue("Access-Control-Allow-Headers")).hasValue("Content-Type,X-Token");
        assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
        assertThat(r.headers().firstValue("Access-Control-Max-Age")).hasValue("600");
        assertThat(r.headers().allValues("Vary")).containsExactly("Origin");
        assertThat(route.backend.requests).isEmpty();

        HttpResponse<String> other = send("OPTIONS", "Origin", "https://evil.example",
                "Access-Control-Request-Method", "PUT");
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

        send("OPTIONS", "Origin", "https://app.example"); // no Access-Control-Request-Method: not a preflight
        assertThat(route.backend.requests).hasSize(1);
    }

    @Test
    void simpleRequestsGetTheAllowedOrigin() throws Exception {
        configure("""
                {accessControlAllowOriginList: ["https://app.example"], accessControlExposeHeaders: [X-Total],
                 accessControlAllowOriginListRegex: ["https://[a-z]+\\\\.example\\\\.com"]}""");
        HttpResponse<String> r = send("GET", "Origin", "https://app.example");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("https://app.example");
        assertThat(r.headers().firstValue("Access-Control-Expose-Headers")).hasValue("X-Total");
        assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();
        assertThat(r.headers().allValues("Vary")).containsExactly("Origin");

        assertThat(send("GET", "Origin", "https://shop.example.com").headers().firstValue("Access-Control-Allow-Origin"))
                .hasValue("https://shop.example.com");
        // the pattern must match the whole origin, not a part of it
        assertThat(send("GET", "Origin", "https://shop.example.com.attacker.net").headers()
                .firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(send("GET", "Origin", "https://evil.example").headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(send("GET").headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void anyOriginIsAStarWithoutVary() throws Exception {
        configure("{accessControlAllowOriginList: [\"*\"]}");
        HttpResponse<String> r = send("GET", "Origin", "https://whoever.example");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(r.headers().allValues("Vary")).isEmpty();
    }
}
