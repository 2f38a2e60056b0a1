package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** chain and entry-point middlewares: order, name resolution, cycles. */
class ChainTest {

    @RegisterExtension
    final OneRoute route = OneRoute.of(TestBackend::ok, Middlewares::new, "--entryPoints.admin.address=127.0.0.1:0",
            "--entryPoints.admin.http.middlewares=local-only@file,tag");

    private HttpResponse<String> get(String entryPoint, String path) throws Exception {
        return route.sendTo(entryPoint, "GET", path);
    }

    @Test
    void chainAppliesItsMembersInOrder() throws Exception {
        route.proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [both], entryPoints: [web]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    both: {chain: {middlewares: [strip, add]}}
                    strip: {stripPrefix: {prefixes: [/api]}}
                    add: {addPrefix: {prefix: /v2}}
                """.formatted(route.backend.url()));
        assertThat(get("web", "/api/x").statusCode()).isEqualTo(200);
        assertThat(route.backend.last().uri()).isEqualTo("/v2/x"); // stripped first, then prefixed
    }

    @Test
    void cyclesAndUnknownMembersDisableTheRouter() throws Exception {
        route.proxy.apply("""
                http:
                  routers:
                    loop: {rule: "PathPrefix(`/loop`)", service: s, middlewares: [a], entryPoints: [web]}
                    missing: {rule: "PathPrefix(`/missing`)", service: s, middlewares: [c], entryPoints: [web]}
                    fine: {rule: "PathPrefix(`/fine`)", service: s, middlewares: [d], entryPoints: [web]}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    a: {chain: {middlewares: [d, b]}}
                    b: {chain: {middlewares: [a]}}
                    c: {chain: {middlewares: [d, nowhere]}}
                    d: {addPrefix: {prefix: /d}}
                """.formatted(route.backend.url()));
        assertThat(route.proxy.routing.errors()).containsEntry("loop@file",
                "middleware chain cycle: a@file -> b@file -> a@file");
        assertThat(route.proxy.routing.errors()).containsEntry("missing@file", "the middleware \"nowhere@file\" does not exist");
        assertThat(get("web", "/loop").statusCode()).isEqualTo(404);
        assertThat(get("web", "/fine").statusCode()).isEqualTo(200);
    }

    @Test
    void entryPointMiddlewaresComeFirstOnEveryRouterOfThatEntryPoint() throws Exception {
        route.proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [add]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares:
                    local-only: {ipAllowList: {sourceRange: ["127.0.0.1"]}}
                    tag: {stripPrefix: {prefixes: [/admin]}}
                    add: {addPrefix: {prefix: /v1}}
                """.formatted(route.backend.url()));
        assertThat(get("admin", "/admin/x").statusCode()).isEqualTo(200);
        assertThat(route.backend.last().uri()).isEqualTo("/v1/x"); // the entry point's stripPrefix ran before addPrefix
        assertThat(get("web", "/admin/x").statusCode()).isEqualTo(200);
        assertThat(route.backend.last().uri()).isEqualTo("/v1/admin/x"); // not on the other entry point
    }

    @Test
    void entryPointMiddlewareNamesResolveInTheRoutersProvider() throws Exception {
        route.proxy.apply("""
                http:
                  middlewares:
                    local-only: {ipAllowList: {sourceRange: ["127.0.0.2"]}}
                    tag: {stripPrefix: {prefixes: [/admin]}}
                """);
        // a router of another provider: "local-only@file" is found, unqualified "tag" is looked up in its provider
        route.proxy.apply("registrycatalog", """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, entryPoints: [admin]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                """.formatted(route.backend.url()));
        assertThat(route.proxy.routing.errors()).containsEntry("r@registrycatalog",
                "the middleware \"tag@registrycatalog\" does not exist");
    }
}
