package dev.proxy.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.Http;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the API and the dashboard are reachable: automatically only on the internal entry point, else by routers. */
class ApiRoutingTest {

    @Test
    void insecureRoutesTheApiAndDashboardOnTheInternalEntryPointOnly() {
        try (DataPlane p = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure")) {
            assertThat(Http.get(p.url("proxy", "/api/version")).statusCode()).isEqualTo(200);
            assertThat(Http.get(p.url("proxy", "/dashboard/")).statusCode()).isEqualTo(200);
            assertThat(Http.get(p.url("web", "/api/version")).statusCode()).isEqualTo(404);
            assertThat(Http.get(p.url("web", "/dashboard/")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withoutInsecureNothingIsRoutedUntilARouterSendsToTheApi() {
        try (DataPlane p = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                "--entryPoints.proxy.address=127.0.0.1:0", "--api")) {
            assertThat(Http.get(p.url("proxy", "/api/version")).statusCode()).isEqualTo(404);
            p.apply("""
                    http:
                      routers:
                        ops-api:
                          rule: "Host(`ops.example`) && PathPrefix(`/api`)"
                          entryPoints: [web]
                          service: api@internal
                          middlewares: [office]
                        ops-dashboard:
                          rule: "Host(`ops.example`) && PathPrefix(`/dashboard`)"
                          entryPoints: [web]
                          service: dashboard@internal
                      middlewares:
                        office:
                          ipAllowList: {sourceRange: ["127.0.0.1/32"]}
                    """);
            HttpResponse<String> r = Http.get(p.url("web", "/api/http/routers/ops-api@file"), "Host", "ops.example");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(Http.object(r)).containsEntry("service", "api@internal").containsEntry("status", "enabled");
            assertThat(Http.get(p.url("web", "/dashboard/"), "Host", "ops.example").statusCode()).isEqualTo(200);
            assertThat(Http.get(p.url("web", "/api/version"), "Host", "other.example").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void routersToDisabledInternalServicesAreDisabledWithTheReason() {
        try (DataPlane p = new DataPlane("--entryPoints.web.address=127.0.0.1:0", "--api.dashboard=false")) {
            p.apply("""
                    http:
                      routers:
                        a: {rule: "PathPrefix(`/dashboard`)", service: dashboard@internal}
                        b: {rule: "PathPrefix(`/metrics`)", service: prometheus@internal}
                        c: {rule: "PathPrefix(`/x`)", service: nothing@internal}
                    """);
            assertThat(p.routing.errors()).isEqualTo(Map.of(
                    "a@file", "service dashboard@internal: the dashboard is not enabled (api.dashboard=false)",
                    "b@file", "service prometheus@internal: metrics.prometheus is not enabled",
                    "c@file", "service nothing@internal: there is no such internal service"));
        }
        try (DataPlane p = new DataPlane("--entryPoints.web.address=127.0.0.1:0")) {
            p.apply("""
                    http:
                      routers:
                        a: {rule: "PathPrefix(`/api`)", service: api@internal}
                    """);
            assertThat(p.routing.errors()).isEqualTo(Map.of("a@file", "service api@internal: the api is not enabled"));
        }
    }

    @Test
    void basePathMovesBothUnderIt() {
        try (DataPlane p = new DataPlane("--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure",
                "--api.basePath=/ops")) {
            assertThat(Http.get(p.url("proxy", "/ops/api/version")).statusCode()).isEqualTo(200);
            assertThat(Http.get(p.url("proxy", "/api/version")).statusCode()).isEqualTo(404);
            HttpResponse<String> home = Http.get(p.url("proxy", "/ops/"));
            assertThat(home.statusCode()).isEqualTo(302);
            assertThat(home.headers().firstValue("Location")).hasValue("/ops/dashboard/");
            assertThat(Http.get(p.url("proxy", "/ops/dashboard/")).body()).contains("<title>proxy");
            assertThat(Http.array(Http.get(p.url("proxy", "/ops/api/http/routers"))))
                    .extracting(r -> r.get("rule"))
                    .containsExactly("PathPrefix(`/ops/api`)", "PathPrefix(`/ops/dashboard`) || Path(`/ops/`)");
        }
    }

    @Test
    void theDashboardServesItsThreeFilesAndNothingElse() {
        try (DataPlane p = new DataPlane("--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure")) {
            for (String path : List.of("/", "/dashboard")) {
                HttpResponse<String> r = Http.get(p.url("proxy", path));
                assertThat(r.statusCode()).as(path).isEqualTo(302);
                assertThat(r.headers().firstValue("Location")).hasValue("/dashboard/");
            }
            HttpResponse<String> page = Http.get(p.url("proxy", "/dashboard/"));
            assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
            assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(DashboardHandler.CONTENT_SECURITY_POLICY);
            assertThat(page.body()).contains("<script src=\"app.js\"", "<link rel=\"stylesheet\" href=\"style.css\">")
                    .doesNotContain("http://", "https://");
            assertThat(Http.get(p.url("proxy", "/dashboard/app.js")).headers().firstValue("Content-Type"))
                    .hasValue("text/javascript; charset=utf-8");
            assertThat(Http.get(p.url("proxy", "/dashboard/style.css")).statusCode()).isEqualTo(200);
            for (String path : List.of("/dashboard/../logback.xml", "/dashboard/%2e%2e/logback.xml",
                    "/dashboard/dev/proxy/default-proxy.yml", "/dashboard/index.htm")) {
                assertThat(Http.get(p.url("proxy", path)).statusCode()).as(path).isEqualTo(404);
            }
            assertThat(Http.send("DELETE", p.url("proxy", "/dashboard/")).statusCode()).isEqualTo(405);
        }
    }
}
