package dev.proxy.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.Http;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import java.nio.file.Path;

/** Every API endpoint against one file-provider configuration (see {@link ApiFixture}), over real sockets. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiTest {

    private ApiFixture f;

    @BeforeAll
    void start(@TempDir Path dir) {
        f = new ApiFixture(dir);
    }

    @AfterAll
    void stop() {
        f.close();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    private static List<Object> names(List<Map<String, Object>> items) {
        return items.stream().map(i -> i.get("name")).toList();
    }

    @Test
    void overviewCountsEverythingByStatus() {
        Map<String, Object> o = f.object("/overview");
        assertThat(o.get("http")).isEqualTo(Map.of(
                "routers", Map.of("total", 10, "warnings", 1, "errors", 4),
                "services", Map.of("total", 7, "warnings", 2, "errors", 0),
                "middlewares", Map.of("total", 3, "warnings", 0, "errors", 1)));
        assertThat(o.get("features")).isEqualTo(Map.of("tracing", "", "metrics", "Prometheus", "accessLog", false));
        assertThat(o.get("providers")).isEqualTo(List.of("file"));
        assertThat(o.get("configurationReloads")).isEqualTo(1);
        assertThat(Instant.parse((String) o.get("lastConfigurationReload"))).isBefore(Instant.now());
    }

    @Test
    void routersListEveryRouterWithStatusErrorAndProvider() {
        HttpResponse<String> r = f.api("/http/routers");
        assertThat(r.headers().firstValue("X-Next-Page")).hasValue("1");
        List<Map<String, Object>> routers = Http.array(r);
        assertThat(names(routers)).containsExactly("api@internal", "broken@file", "canary@file", "dashboard@internal",
                "dead@file", "evil@internal@file", "locked@file", "orphan@file", "prometheus@internal", "web@file");
        Map<String, Map<String, Object>> byName = new java.util.HashMap<>();
        routers.forEach(x -> byName.put((String) x.get("name"), x));
        assertThat(byName.get("web@file")).isEqualTo(Map.of("name", "web@file", "provider", "file", "status", "enabled",
                "entryPoints", List.of("web"), "middlewares", List.of("auth@file", "secure-headers@file"),
                "service", "app@file", "rule", "Host(`app.example`) && PathPrefix(`/`)", "priority", 38,
                "using", List.of("web")));
        assertThat(byName.get("broken@file")).containsEntry("status", "disabled")
                .containsEntry("error", List.of("invalid rule: missing ')' for 'Path(' at column 1 in rule \"Path(`/x`\""));
        assertThat(byName.get("orphan@file")).containsEntry("status", "disabled")
                .containsEntry("error", List.of("the service \"missing@file\" does not exist"));
        assertThat(byName.get("locked@file")).containsEntry("status", "disabled")
                .containsEntry("error", List.of("middleware bad-allow@file: \"not-an-address\" is not an IP address or CIDR range"));
        assertThat(byName.get("evil@internal@file")).isEqualTo(Map.of("name", "evil@internal@file", "provider", "file",
                "status", "disabled", "error", List.of("a name defined by a provider must not contain \"@\"; "
                        + "the provider suffix is added for it")));
        assertThat(byName.get("dead@file")).containsEntry("status", "warning")
                .containsEntry("error", List.of("the service down@file has no server up: requests get 503"));
        assertThat(byName.get("canary@file")).containsEntry("status", "enabled").containsEntry("using", List.of("web"))
                .doesNotContainKey("error");
        assertThat(byName.get("api@internal")).containsEntry("provider", "internal")
                .containsEntry("rule", "PathPrefix(`/api`)").containsEntry("entryPoints", List.of("proxy"))
                .containsEntry("priority", Long.MAX_VALUE - 1);
    }

    @Test
    void oneRouterByItsEscapedName() {
        assertThat(f.object("/http/routers/web%40file")).containsEntry("name", "web@file").containsEntry("status", "enabled");
        assertThat(f.object("/http/routers/web@file")).containsEntry("name", "web@file");
        HttpResponse<String> missing = f.api("/http/routers/nope@file");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(Http.object(missing)).isEqualTo(Map.of("message", "router not found: nope@file"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            search in names                 | search=dea                       | dead@file
            search in rules                 | search=app.EXAMPLE               | web@file
            disabled                        | status=disabled                  | broken@file evil@internal@file locked@file orphan@file
            warning                         | status=warning                   | dead@file
            by service                      | serviceName=app@file             | broken@file locked@file web@file
            by middleware                   | middlewareName=auth@file         | web@file
            sorted by provider, descending  | sortBy=provider&direction=desc&status=enabled | prometheus@internal dashboard@internal api@internal web@file canary@file
            """)
    void listParametersFilterAndSort(String name, String query, String expected) {
        assertThat(names(f.array("/http/routers?" + query))).containsExactly((Object[]) expected.split(" "));
    }

    @Test
    void pagesCarryTheNextPageNumberAndOneAtTheEnd() {
        HttpResponse<String> first = f.api("/http/routers?per_page=4");
        assertThat(names(Http.array(first))).containsExactly("api@internal", "broken@file", "canary@file",
                "dashboard@internal");
        assertThat(first.headers().firstValue("X-Next-Page")).hasValue("2");
        HttpResponse<String> last = f.api("/http/routers?per_page=4&page=3");
        assertThat(names(Http.array(last))).containsExactly("prometheus@internal", "web@file");
        assertThat(last.headers().firstValue("X-Next-Page")).hasValue("1");
        assertThat(f.api("/http/routers?per_page=4&page=4").statusCode()).isEqualTo(400);
        assertThat(f.api("/http/routers?per_page=0").statusCode()).isEqualTo(400);
        assertThat(Http.object(f.api("/http/routers?page=x")))
                .isEqualTo(Map.of("message", "page: expected a positive whole number, not \"x\""));
    }

    @Test
    void servicesShowEachServersHealth() {
        Map<String, Object> app = f.object("/http/services/app@file");
        assertThat(app).isEqualTo(Map.of("name", "app@file", "provider", "file", "status", "enabled",
                "type", "loadbalancer",
                "loadBalancer", Map.of("servers", List.of(Map.of("url", f.backendUrl, "weight", 1)), "passHostHeader", true),
                "serverStatus", Map.of(f.backendUrl, "UP"),
                "usedBy", List.of("broken@file", "canary@file", "locked@file", "web@file")));
        assertThat(f.object("/http/services/down@file")).containsEntry("status", "warning")
                .containsEntry("error", List.of("no server is up"))
                .containsEntry("serverStatus", Map.of(ApiFixture.DOWN_URL, "DOWN"));
        assertThat(f.object("/http/services/mixed@file")).containsEntry("status", "warning")
                .containsEntry("error", List.of("1 of 2 servers are down"))
                .containsEntry("serverStatus", Map.of(f.backendUrl, "UP", ApiFixture.DOWN_URL, "DOWN"))
                .containsEntry("usedBy", List.of("canary@file"));
        assertThat(f.object("/http/services/split@file")).containsEntry("type", "weighted")
                .containsEntry("weighted", Map.of("services", List.of(Map.of("name", "app@file", "weight", 3),
                        Map.of("name", "mixed@file", "weight", 1))))
                .containsEntry("usedBy", List.of("canary@file"));
        assertThat(names(f.array("/http/services?status=warning"))).containsExactly("down@file", "mixed@file");
        assertThat(names(f.array("/http/services?search=internal"))).containsExactly("api@internal",
                "dashboard@internal", "prometheus@internal");
        assertThat(f.api("/http/services/nope@file").statusCode()).isEqualTo(404);
    }

    @Test
    void middlewaresShowTheirOptionsWithoutSecrets() {
        assertThat(f.object("/http/middlewares/auth@file")).isEqualTo(Map.of("name", "auth@file", "provider", "file",
                "status", "enabled", "type", "basicauth",
                "config", Map.of("users", List.of("****"), "usersFile", "", "realm", "proxy", "removeHeader", false,
                        "headerField", ""),
                "usedBy", List.of("web@file")));
        assertThat(f.object("/http/middlewares/bad-allow@file")).containsEntry("status", "disabled")
                .containsEntry("type", "ipallowlist")
                .containsEntry("error", List.of("middleware bad-allow@file: \"not-an-address\" is not an IP address or CIDR range"))
                .containsEntry("usedBy", List.of("locked@file"));
        assertThat(names(f.array("/http/middlewares"))).containsExactly("auth@file", "bad-allow@file",
                "secure-headers@file");
        assertThat(f.api("/http/middlewares/nope@file").statusCode()).isEqualTo(404);
    }

    @Test
    void rawDataHoldsRoutersServicesAndMiddlewaresByName() {
        Map<String, Object> raw = f.object("/rawdata");
        assertThat(raw).containsOnlyKeys("routers", "services", "middlewares");
        assertThat(map(raw.get("routers"))).hasSize(10).containsKeys("web@file", "evil@internal@file");
        assertThat(map(raw.get("services"))).hasSize(7).containsKey("split@file");
        assertThat(map(raw.get("middlewares"))).hasSize(3).containsKey("auth@file");
        assertThat(map(raw.get("routers")).get("web@file")).isEqualTo(f.object("/http/routers/web@file"));
    }

    @Test
    void entryPointsWithTheirBoundPorts() {
        List<Map<String, Object>> eps = f.array("/entrypoints");
        assertThat(names(eps)).containsExactly("web", "proxy");
        assertThat(f.object("/entrypoints/web")).isEqualTo(Map.of("name", "web", "address", "127.0.0.1:0",
                "port", f.proxy.port("web"),
                "transport", Map.of("lifeCycle", Map.of("requestAcceptGraceTimeout", "0s", "graceTimeOut", "10s"),
                        "respondingTimeouts", Map.of("readTimeout", "1m", "writeTimeout", "0s", "idleTimeout", "3m"),
                        "maxConnections", 0),
                "forwardedHeaders", Map.of("trustedIPs", List.of(), "insecure", false),
                "http", Map.of("middlewares", List.of(), "maxRequestBodyBytes", 0),
                "http2", Map.of("maxConcurrentStreams", 250)));
        assertThat(f.api("/entrypoints/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void version() {
        Map<String, Object> v = f.object("/version");
        assertThat(v).containsOnlyKeys("Version", "Codename", "startDate", "java");
        assertThat(v.get("Version")).isEqualTo("dev"); // no jar manifest in unit tests
        assertThat(Instant.parse((String) v.get("startDate"))).isBefore(Instant.now());
    }

    @Test
    void providersWithActivityCountsAndTheirConfiguration() {
        List<Map<String, Object>> providers = f.array("/providers");
        assertThat(names(providers)).containsExactly("file");
        Map<String, Object> file = f.object("/providers/file");
        assertThat(file).containsEntry("status", "enabled").containsEntry("failures", 0)
                .containsEntry("routers", 6).containsEntry("services", 4).containsEntry("middlewares", 3)
                .containsEntry("explainable", true)
                .containsEntry("config", Map.of("filename", f.file.toString(), "watch", true))
                .doesNotContainKey("lastError");
        assertThat((Integer) file.get("refreshes")).isPositive();
        assertThat(Instant.parse((String) file.get("lastSuccessfulRefresh"))).isBefore(Instant.now());
        assertThat(f.api("/providers/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void explainTellsWhatBecameOfEachFile() {
        assertThat(f.array("/providers/file/explain")).containsExactly(Map.of("item", "file " + f.file,
                "exposed", true, "reason", "exposed: 7 routers, 4 services, 3 middlewares",
                "routers", List.of("web", "broken", "orphan", "canary", "dead", "locked", "evil@internal")));
        assertThat(f.array("/providers/file/explain?status=skipped")).isEmpty();
        assertThat(f.api("/providers/nope/explain").statusCode()).isEqualTo(404);
        assertThat(f.api("/providers/file/other").statusCode()).isEqualTo(404);
    }

    @Test
    void readOnlyJsonAndNotFoundAsJson() {
        HttpResponse<String> r = f.api("/overview");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        HttpResponse<String> post = Http.send("POST", f.proxy.url("proxy", "/api/overview"));
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        HttpResponse<String> head = Http.send("HEAD", f.proxy.url("proxy", "/api/overview"));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        HttpResponse<String> unknown = f.api("/nothing/here");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Http.object(unknown)).isEqualTo(Map.of("message", "not found: /api/nothing/here"));
    }

    @Test
    void theApiIsNotRoutedOnOtherEntryPoints() {
        assertThat(Http.get(f.proxy.url("web", "/api/overview")).statusCode()).isEqualTo(404);
        assertThat(Http.get(f.proxy.url("web", "/dashboard/")).statusCode()).isEqualTo(404);
        assertThat(Http.get(f.proxy.url("web", "/metrics")).statusCode()).isEqualTo(404);
    }
}
