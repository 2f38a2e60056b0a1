package dev.proxy.provider.registrycatalog;

import static dev.proxy.provider.registrycatalog.Catalog.at;
import static dev.proxy.provider.registrycatalog.Catalog.connect;
import static dev.proxy.provider.registrycatalog.Catalog.item;
import static dev.proxy.provider.registrycatalog.Catalog.options;
import static dev.proxy.provider.registrycatalog.Catalog.status;
import static dev.proxy.provider.registrycatalog.Catalog.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.config.dynamic.DynamicConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pure builder, Traefik-style: catalog items and options in, the <em>whole</em> configuration and every
 * instance's explanation out. Explanations are written {@code <id>: exposed} or {@code <id>: skipped: <part of the
 * reason>}.
 */
class CatalogConfigBuilderTest {

    private static final String TRUST_DOMAIN = "11111111-2222-3333-4444-555555555555.consul";
    private static final String WEB = """
            http:
              routers:
                web: {rule: "Host(`web`)", service: web}
              services:
                web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
            """;

    private record Case(String description, List<String> flags, List<CatalogItem> items, String expected,
                        List<String> explained) {
        @Override
        public String toString() {
            return description;
        }
    }

    private static Arguments c(String description, List<String> flags, List<CatalogItem> items, String expected,
                               String... explained) {
        return arguments(new Case(description, flags, items, expected, List.of(explained)));
    }

    private static List<CatalogItem> items(CatalogItem... items) {
        return List.of(items);
    }

    private static final List<String> NONE = List.of();

    static Stream<Arguments> cases() {
        return Stream.of(
                c("empty catalog: empty configuration", NONE, items(), ""),
                c("untagged instance: default service and router", NONE, items(item("web", 1)), WEB, "web-1: exposed"),
                c("service name is normalized for names and rule", NONE, items(item("my_svc.v2", 1)), """
                        http:
                          routers:
                            my-svc-v2: {rule: "Host(`my-svc-v2`)", service: my-svc-v2}
                          services:
                            my-svc-v2: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                        """, "my_svc.v2-1: exposed"),
                c("two instances: one load balancer with both servers", NONE, items(item("web", 1), item("web", 2)), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: web}
                          services:
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}, {url: "http://127.0.0.3:8080"}]}}
                        """, "web-1: exposed", "web-2: exposed"),
                c("two instances at the same address and port: one server", NONE,
                        items(item("web", 1), at(item("web", 2), "127.0.0.2", 8080)), WEB, "web-1: exposed", "web-2: exposed"),
                c("two services: two routers and services", NONE, items(item("api", 1), item("web", 1)), """
                        http:
                          routers:
                            api: {rule: "Host(`api`)", service: api}
                            web: {rule: "Host(`web`)", service: web}
                          services:
                            api: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                        """, "api-1: exposed", "web-1: exposed"),
                c("rule from a tag", NONE, items(item("web", 1, "proxy.http.routers.web.rule=PathPrefix(`/web`)")),
                        WEB.replace("Host(`web`)", "PathPrefix(`/web`)"), "web-1: exposed"),
                c("tag value split at the first =", NONE, items(item("web", 1,
                        "proxy.http.routers.web.rule=Query(`a=b`)")), WEB.replace("Host(`web`)", "Query(`a=b`)"),
                        "web-1: exposed"),
                c("entry points from a tag", NONE, items(item("web", 1, "proxy.http.routers.web.entrypoints=web,websecure")),
                        WEB.replace("service: web}", "service: web, entryPoints: [web, websecure]}"), "web-1: exposed"),
                c("priority from a tag", NONE, items(item("web", 1, "proxy.http.routers.web.priority=42")),
                        WEB.replace("service: web}", "service: web, priority: 42}"), "web-1: exposed"),
                c("tls from a tag", NONE, items(item("web", 1, "proxy.http.routers.web.tls=true")),
                        WEB.replace("service: web}", "service: web, tls: {}}"), "web-1: exposed"),
                c("tls.certresolver from a tag", NONE, items(item("web", 1, "proxy.http.routers.web.tls.certresolver=le")),
                        WEB.replace("service: web}", "service: web, tls: {certResolver: le}}"), "web-1: exposed"),
                c("middleware defined and used by tags", NONE, items(item("web", 1,
                        "proxy.http.middlewares.lan.ipallowlist.sourcerange=127.0.0.1/32,::1",
                        "proxy.http.routers.web.middlewares=lan")), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: web, middlewares: [lan]}
                          services:
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                          middlewares:
                            lan: {ipAllowList: {sourceRange: [127.0.0.1/32, "::1"]}}
                        """, "web-1: exposed"),
                c("basicauth, compress and ratelimit middlewares from tags", NONE, items(item("web", 1,
                        "proxy.http.middlewares.auth.basicauth.users=u:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=",
                        "proxy.http.middlewares.gz.compress=true",
                        "proxy.http.middlewares.slow.ratelimit.average=10",
                        "proxy.http.middlewares.slow.ratelimit.burst=20",
                        "proxy.http.routers.web.middlewares=auth,gz,slow")), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: web, middlewares: [auth, gz, slow]}
                          services:
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                          middlewares:
                            auth: {basicAuth: {users: ["u:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ="]}}
                            gz: {compress: {}}
                            slow: {rateLimit: {average: 10, burst: 20}}
                        """, "web-1: exposed"),
                c("server.port tag replaces the registered port", NONE,
                        items(item("web", 1, "proxy.http.services.web.loadbalancer.server.port=9090")),
                        WEB.replace(":8080", ":9090"), "web-1: exposed"),
                c("server.scheme https", NONE, items(item("web", 1, "proxy.http.services.web.loadbalancer.server.scheme=https")),
                        WEB.replace("http://127", "https://127"), "web-1: exposed"),
                c("server.url replaces address and port", NONE,
                        items(item("web", 1, "proxy.http.services.web.loadbalancer.server.url=http://127.0.0.9:81/base")),
                        WEB.replace("http://127.0.0.2:8080", "http://127.0.0.9:81/base"), "web-1: exposed"),
                c("server.weight", NONE, items(item("web", 1, "proxy.http.services.web.loadbalancer.server.weight=3")),
                        WEB.replace(":8080\"}", ":8080\", weight: 3}"), "web-1: exposed"),
                c("passhostheader false", NONE, items(item("web", 1, "proxy.http.services.web.loadbalancer.passhostheader=false")),
                        WEB.replace("{loadBalancer: {", "{loadBalancer: {passHostHeader: false, "), "web-1: exposed"),
                c("health check path and interval", NONE, items(item("web", 1,
                        "proxy.http.services.web.loadbalancer.healthcheck.path=/health",
                        "proxy.http.services.web.loadbalancer.healthcheck.interval=5s")),
                        WEB.replace("{loadBalancer: {", "{loadBalancer: {healthCheck: {path: /health, interval: 5s}, "),
                        "web-1: exposed"),
                c("sticky cookie", NONE, items(item("web", 1, "proxy.http.services.web.loadbalancer.sticky.cookie.name=s")),
                        WEB.replace("{loadBalancer: {", "{loadBalancer: {sticky: {cookie: {name: s}}, "), "web-1: exposed"),
                c("a service named by tags gets the default router", NONE,
                        items(item("web", 1, "proxy.http.services.api.loadbalancer.server.port=9090")), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: api}
                          services:
                            api: {loadBalancer: {servers: [{url: "http://127.0.0.2:9090"}]}}
                        """, "web-1: exposed"),
                c("two services by tags and no router: services only", NONE, items(item("web", 1,
                        "proxy.http.services.a.loadbalancer.server.port=81",
                        "proxy.http.services.b.loadbalancer.server.port=82")), """
                        http:
                          services:
                            a: {loadBalancer: {servers: [{url: "http://127.0.0.2:81"}]}}
                            b: {loadBalancer: {servers: [{url: "http://127.0.0.2:82"}]}}
                        """, "web-1: skipped: no router"),
                c("a router without service among two services is left out", NONE, items(item("web", 1,
                        "proxy.http.routers.r.rule=Path(`/`)",
                        "proxy.http.services.a.loadbalancer.server.port=81",
                        "proxy.http.services.b.loadbalancer.server.port=82")), """
                        http:
                          services:
                            a: {loadBalancer: {servers: [{url: "http://127.0.0.2:81"}]}}
                            b: {loadBalancer: {servers: [{url: "http://127.0.0.2:82"}]}}
                        """, "web-1: skipped: has no service and the item defines several"),
                c("90/10 weights across two Consul services: a canary split", NONE, items(
                        item("app-v1", 1, "proxy.http.routers.app.rule=Host(`app`)", "proxy.http.services.app-v1.loadbalancer.weight=90"),
                        item("app-v2", 2, "proxy.http.routers.app.rule=Host(`app`)", "proxy.http.services.app-v2.loadbalancer.weight=10")), """
                        http:
                          routers:
                            app: {rule: "Host(`app`)", service: app-canary}
                          services:
                            app-v1: {loadBalancer: {weight: 90, servers: [{url: "http://127.0.0.2:8080"}]}}
                            app-v2: {loadBalancer: {weight: 10, servers: [{url: "http://127.0.0.3:8080"}]}}
                            app-canary: {weighted: {services: [{name: app-v1, weight: 90}, {name: app-v2, weight: 10}]}}
                        """, "app-v1-1: exposed", "app-v2-2: exposed"),
                c("canary tag: a name of its own beside the production instance", NONE, items(item("web", 1),
                        item("web", 2, "proxy.registrycatalog.canary=true")), WEB + """
                            web-e8c93b3fa0631276: {loadBalancer: {servers: [{url: "http://127.0.0.3:8080"}]}}
                          routers:
                            web-e8c93b3fa0631276: {rule: "Host(`web`)", service: web-e8c93b3fa0631276}
                        """.replace("  routers:\n    web-ed", "  routers:\n    web-ed"), "web-1: exposed", "web-2: exposed"),
                c("exposedByDefault false and no enable tag: skipped", List.of("--exposedByDefault=false"),
                        items(item("web", 1, "other")), "", "web-1: skipped: no tag proxy.enable=true (no tag starts"),
                c("exposedByDefault false with enable=true: exposed", List.of("--exposedByDefault=false"),
                        items(item("web", 1, "proxy.enable=true")), WEB, "web-1: exposed"),
                c("enable=false: skipped", NONE, items(item("web", 1, "proxy.enable=false")), "",
                        "web-1: skipped: disabled by its tag proxy.enable=false"),
                c("enable is not a boolean: invalid", NONE, items(item("web", 1, "proxy.enable=yes")), "",
                        "web-1: skipped: not a boolean"),
                c("constraint Tag matches", List.of("--constraints=Tag(`public`)"), items(item("web", 1, "public")),
                        WEB, "web-1: exposed"),
                c("constraint Tag does not match", List.of("--constraints=Tag(`public`)"), items(item("web", 1, "internal")),
                        "", "web-1: skipped: the constraints Tag(`public`) are false"),
                c("constraint TagRegex, unanchored", List.of("--constraints=TagRegex(`^team-(a|b)`)"),
                        items(item("api", 1, "team-c"), item("web", 1, "team-b-x")), WEB,
                        "api-1: skipped: constraints", "web-1: exposed"),
                c("constraint with ! && ||", List.of("--constraints=!Tag(`internal`) && (Tag(`a`) || Tag(`b`))"),
                        items(item("api", 1, "a", "internal"), item("web", 1, "b")), WEB,
                        "api-1: skipped: constraints", "web-1: exposed"),
                c("constraints see plain tags and prefixed tags", List.of("--constraints=Tag(`proxy.enable=true`)"),
                        items(item("web", 1, "proxy.enable=true")), WEB, "web-1: exposed"),
                c("critical is not in the default strictChecks", NONE, items(status(item("web", 1), "critical")), "",
                        "web-1: skipped: check status critical is not in strictChecks [passing, warning]"),
                c("warning is in the default strictChecks", NONE, items(status(item("web", 1), "warning")), WEB,
                        "web-1: exposed"),
                c("warning with strictChecks passing only", List.of("--strictChecks=passing"),
                        items(status(item("web", 1), "warning")), "", "web-1: skipped: check status warning"),
                c("critical with strictChecks any", List.of("--strictChecks=any"), items(status(item("web", 1), "critical")),
                        WEB, "web-1: exposed"),
                c("maintenance only with maintenance in strictChecks", List.of("--strictChecks=passing,warning,critical"),
                        items(status(item("web", 1), "maintenance")), "", "web-1: skipped: check status maintenance"),
                c("one healthy and one critical instance: only the healthy one serves", NONE,
                        items(item("web", 1), status(item("web", 2), "critical")), WEB,
                        "web-1: exposed", "web-2: skipped: critical"),
                c("Connect instance without connectAware: skipped", NONE, items(connect(item("web", 1))), "",
                        "web-1: skipped: but connectAware is false"),
                c("Connect instance before the certificates: skipped", List.of("--connectAware=true"),
                        items(connect(item("web", 1, "no-certs"))), "", "web-1: skipped: not available yet"),
                c("Connect instance with certificates: https server", List.of("--connectAware=true"),
                        items(connect(item("web", 1))), WEB.replace("http://", "https://"), "web-1: exposed"),
                c("Connect scheme wins over a server.scheme tag", List.of("--connectAware=true"),
                        items(connect(item("web", 1, "proxy.http.services.web.loadbalancer.server.scheme=h2c"))),
                        WEB.replace("http://", "https://"), "web-1: exposed"),
                c("plain and Connect instances in one service: the service is removed", List.of("--connectAware=true"),
                        items(item("web", 1), connect(item("web", 2))), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: web}
                        """, "web-1: exposed (but: service web defined multiple times", "web-2: exposed (but:"),
                c("same router, different rules: removed, both instances explained", NONE, items(
                        item("web", 1, "proxy.http.routers.web.rule=Path(`/a`)"),
                        item("web", 2, "proxy.http.routers.web.rule=Path(`/b`)")), """
                        http:
                          services:
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}, {url: "http://127.0.0.3:8080"}]}}
                        """, "web-1: skipped: router web defined multiple times with different configurations",
                        "web-2: skipped: router web defined multiple times"),
                c("same service, different load-balancer settings: removed", NONE, items(item("web", 1),
                        item("web", 2, "proxy.http.services.web.loadbalancer.passhostheader=false")), """
                        http:
                          routers:
                            web: {rule: "Host(`web`)", service: web}
                        """, "web-1: exposed (but: service web defined multiple times", "web-2: exposed (but:"),
                c("a bad tag skips its instance only", NONE, items(item("web", 1),
                        item("web", 2, "proxy.http.services.web.loadbalancer.server.port=http")), WEB,
                        "web-1: exposed", "web-2: skipped: invalid: consul service web instance web-2 on node n1 tag "
                                + "proxy.http.services.web.loadbalancer.server.port=http: not a port"),
                c("tcp tags make the instance invalid", NONE, items(item("web", 1, "proxy.tcp.routers.t.rule=HostSNI(`*`)")),
                        "", "web-1: skipped: tcp/udp routing is not supported"),
                c("unknown key makes the instance invalid", NONE, items(item("web", 1, "proxy.http.routers.web.rulez=x")),
                        "", "web-1: skipped: invalid"),
                c("no port and no server.port tag: invalid", NONE, items(at(item("web", 1), "127.0.0.2", 0)), "",
                        "web-1: skipped: port is missing"),
                c("IPv6 address in brackets", NONE, items(at(item("web", 1), "::1", 8080)),
                        WEB.replace("127.0.0.2", "[::1]"), "web-1: exposed"),
                c("defaultRule template with .Name and .Labels",
                        List.of("--defaultRule=Host(`{{ index .Labels \"proxy.domain\" | default .Name }}.example.com`)"),
                        items(item("api", 1), item("web", 1, "proxy.domain=www")), """
                        http:
                          routers:
                            api: {rule: "Host(`api.example.com`)", service: api}
                            web: {rule: "Host(`www.example.com`)", service: web}
                          services:
                            api: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                        """, "api-1: exposed", "web-1: exposed"),
                c("defaultRule rendering empty: no router, service kept", List.of("--defaultRule={{ index .Labels \"x\" }}"),
                        items(item("web", 1)), """
                        http:
                          services:
                            web: {loadBalancer: {servers: [{url: "http://127.0.0.2:8080"}]}}
                        """, "web-1: skipped: renders empty"),
                c("another prefix: proxy tags are plain tags", List.of("--prefix=edge"), items(item("web", 1,
                        "proxy.http.routers.web.rule=Path(`/x`)", "edge.http.routers.web.priority=7")),
                        WEB.replace("service: web}", "service: web, priority: 7}"), "web-1: exposed"),
                c("prefix is case-insensitive, tags without = are not labels", NONE, items(item("web", 1,
                        "PROXY.http.routers.web.priority=5", "proxy.http.routers.web.rule")),
                        WEB.replace("service: web}", "service: web, priority: 5}"), "web-1: exposed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void buildsTheWholeConfiguration(Case c) {
        String trustDomain = c.items().stream().anyMatch(i -> i.tags().contains("no-certs")) ? null : TRUST_DOMAIN;
        CatalogConfigBuilder builder = new CatalogConfigBuilder("registrycatalog", CatalogSettings.of(options(
                c.flags().toArray(String[]::new))));

        CatalogConfigBuilder.Built built = builder.build(c.items(), trustDomain);

        DynamicConfig expected = yaml(c.expected());
        assertThat(built.config()).isEqualTo(expected);
        List<String> explained = new ArrayList<>();
        for (Explanation e : built.explanations()) {
            explained.add(e.instance().replace(" on node n1", "") + ": " + (e.exposed() ? e.reason() : "skipped: " + e.reason()));
        }
        assertThat(explained).hasSameSizeAs(c.explained());
        for (int i = 0; i < explained.size(); i++) {
            String want = c.explained().get(i);
            int cut = want.contains(": skipped: ") ? want.indexOf(": skipped: ") + 11 : want.indexOf(": exposed") + 9;
            assertThat(explained.get(i)).startsWith(want.substring(0, cut)).contains(want.substring(cut));
        }
    }

    @Test
    void connectServicesGetTheSpiffeIdOfTheirConsulService() {
        CatalogConfigBuilder builder = new CatalogConfigBuilder("registrycatalog", CatalogSettings.of(options(
                "--connectAware=true")));

        CatalogConfigBuilder.Built built = builder.build(List.of(connect(item("web", 1)), item("api", 1)), TRUST_DOMAIN);

        assertThat(built.connectIdentities()).isEqualTo(Map.of("web",
                "spiffe://" + TRUST_DOMAIN + "/ns/default/dc/dc1/svc/web"));
    }

    @Test
    void explainsRoutersPerInstanceAndTheSameCatalogGivesTheSameResult() {
        CatalogConfigBuilder builder = new CatalogConfigBuilder("registrycatalog", CatalogSettings.of(options()));
        List<CatalogItem> items = List.of(item("web", 2), item("web", 1), item("api", 1));

        CatalogConfigBuilder.Built first = builder.build(items, null);
        CatalogConfigBuilder.Built reversed = builder.build(List.of(items.get(2), items.get(1), items.get(0)), null);

        assertThat(reversed).isEqualTo(first);
        assertThat(first.explanations()).extracting(Explanation::routers)
                .containsExactly(List.of("api"), List.of("web"), List.of("web"));
    }
}
