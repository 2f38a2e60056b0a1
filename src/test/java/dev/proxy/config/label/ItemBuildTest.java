package dev.proxy.config.label;

import static dev.proxy.config.label.Configs.build;
import static dev.proxy.config.label.Configs.http;
import static dev.proxy.config.label.Configs.item;
import static dev.proxy.config.label.Configs.labels;
import static dev.proxy.config.label.Configs.lb;
import static dev.proxy.config.label.Configs.list;
import static dev.proxy.config.label.Configs.map;
import static dev.proxy.config.label.Configs.router;
import static dev.proxy.config.label.Configs.service;
import static dev.proxy.config.label.Configs.servers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HealthCheck;
import dev.proxy.config.dynamic.IpAllowList;
import dev.proxy.config.dynamic.IpStrategy;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.RouterTls;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.Sticky;
import dev.proxy.config.dynamic.StickyCookie;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One item's labels through {@link LabelDecoder} and {@link ItemDefaults}: the whole resulting configuration. The
 * item is Consul service {@code app} at 127.0.0.2:8080 with the default rule {@code Host(`{{ normalize .Name }}`)}.
 */
class ItemBuildTest {

    private static final String URL = "http://127.0.0.2:8080";
    private static final String RULE = "Host(`app`)";
    private static final Map<String, Service> APP = map("app", lb(URL));
    private static final DynamicConfig DEFAULTS = http(map("app", router("app", RULE)), APP);

    private static Router web(List<String> entryPoints, List<String> middlewares, RouterTls tls) {
        return new Router(entryPoints, middlewares, "app", RULE, null, tls);
    }

    private static DynamicConfig withLoadBalancer(LoadBalancer lb) {
        return http(map("app", router("app", RULE)), map("app", service(lb)));
    }

    static Stream<Arguments> items() {
        return Stream.of(
                arguments("no labels: default service and router", labels(), DEFAULTS),
                arguments("labels without the prefix are not configuration",
                        labels("traefik.http.routers.x.rule=Host(`x`)", "team=payments", "proxyish.http.routers.x.rule=a"), DEFAULTS),
                arguments("provider keys are left to the provider",
                        labels("proxy.enable=false", "proxy.registrycatalog.connect=true", "proxy.registrycatalog.canary=true"), DEFAULTS),
                arguments("router rule, default service linked",
                        labels("proxy.http.routers.web.rule=Host(`w.example`)"),
                        http(map("web", router("app", "Host(`w.example`)")), APP)),
                arguments("router without rule gets the default rule",
                        labels("proxy.http.routers.web.entrypoints=websecure"),
                        http(map("web", web(list("websecure"), null, null)), APP)),
                arguments("entrypoints comma list, spaces trimmed",
                        labels("proxy.http.routers.web.entrypoints=web, websecure"),
                        http(map("web", web(list("web", "websecure"), null, null)), APP)),
                arguments("tls=true",
                        labels("proxy.http.routers.web.tls=true"),
                        http(map("web", web(null, null, new RouterTls(null, null))), APP)),
                arguments("tls=false is no tls",
                        labels("proxy.http.routers.web.tls=false"),
                        http(map("web", web(null, null, null)), APP)),
                arguments("tls.certresolver",
                        labels("proxy.http.routers.web.tls.certresolver=le"),
                        http(map("web", web(null, null, new RouterTls("le", null))), APP)),
                arguments("tls=true and tls.certresolver",
                        labels("proxy.http.routers.web.tls=true", "proxy.http.routers.web.tls.certresolver=le"),
                        http(map("web", web(null, null, new RouterTls("le", null))), APP)),
                arguments("middlewares comma list keeps order",
                        labels("proxy.http.routers.web.middlewares=auth@file,internal"),
                        http(map("web", web(null, list("auth@file", "internal"), null)), APP)),
                arguments("router priority",
                        labels("proxy.http.routers.web.priority=42"),
                        http(map("web", new Router(null, null, "app", RULE, 42L, null)), APP)),
                arguments("router service names another provider's service; default service still made",
                        labels("proxy.http.routers.web.service=api@file"),
                        http(map("web", router("api@file", RULE)), APP)),
                arguments("middleware ipallowlist, no router keys: default router",
                        labels("proxy.http.middlewares.internal.ipallowlist.sourcerange=127.0.0.1/32, ::1"),
                        http(map("app", router("app", RULE)), APP, map("internal",
                                new Middleware(new IpAllowList(list("127.0.0.1/32", "::1"), null, null))))),
                arguments("middleware ipallowlist with ipstrategy and status",
                        labels("proxy.http.middlewares.i.ipAllowList.sourceRange=127.0.0.0/8",
                                "proxy.http.middlewares.i.ipAllowList.ipStrategy.depth=2",
                                "proxy.http.middlewares.i.ipAllowList.rejectStatusCode=404"),
                        http(map("app", router("app", RULE)), APP, map("i",
                                new Middleware(new IpAllowList(list("127.0.0.0/8"), new IpStrategy(2, null), 404))))),
                arguments("router and middleware together",
                        labels("proxy.http.routers.web.middlewares=internal",
                                "proxy.http.middlewares.internal.ipallowlist.sourcerange=127.0.0.1/32"),
                        http(map("web", web(null, list("internal"), null)), APP, map("internal",
                                new Middleware(new IpAllowList(list("127.0.0.1/32"), null, null))))),
                arguments("named service with server.port",
                        labels("proxy.http.services.web.loadbalancer.server.port=9000"),
                        http(map("app", router("web", RULE)), map("web", lb("http://127.0.0.2:9000")))),
                arguments("server.scheme https",
                        labels("proxy.http.services.app.loadbalancer.server.scheme=https"),
                        http(map("app", router("app", RULE)), map("app", lb("https://127.0.0.2:8080")))),
                arguments("server.scheme h2c, upper case",
                        labels("proxy.http.services.app.loadbalancer.server.scheme=H2C"),
                        http(map("app", router("app", RULE)), map("app", lb("h2c://127.0.0.2:8080")))),
                arguments("server.url kept as given",
                        labels("proxy.http.services.app.loadbalancer.server.url=http://127.0.0.3:7000/base"),
                        http(map("app", router("app", RULE)), map("app", lb("http://127.0.0.3:7000/base")))),
                arguments("server.weight",
                        labels("proxy.http.services.app.loadbalancer.server.weight=3"),
                        withLoadBalancer(new LoadBalancer(List.of(new Server(URL, 3, null, null)), null, null, null, null))),
                arguments("loadbalancer.weight (canary share)",
                        labels("proxy.http.services.app.loadbalancer.weight=90"),
                        withLoadBalancer(new LoadBalancer(servers(URL), null, null, null, 90))),
                arguments("healthcheck path and interval",
                        labels("proxy.http.services.app.loadbalancer.healthcheck.path=/health",
                                "proxy.http.services.app.loadbalancer.healthcheck.interval=10s"),
                        withLoadBalancer(new LoadBalancer(servers(URL), null,
                                new HealthCheck("/health", Duration.ofSeconds(10), null, null, null, null, null, null, null), null, null))),
                arguments("healthcheck path only: default interval",
                        labels("proxy.http.services.app.loadbalancer.healthcheck.path=/ready"),
                        withLoadBalancer(new LoadBalancer(servers(URL), null,
                                new HealthCheck("/ready", null, null, null, null, null, null, null, null), null, null))),
                arguments("passhostheader=false",
                        labels("proxy.http.services.app.loadbalancer.passhostheader=false"),
                        withLoadBalancer(new LoadBalancer(servers(URL), false, null, null, null))),
                arguments("sticky cookie enabled with defaults",
                        labels("proxy.http.services.app.loadbalancer.sticky.cookie=true"),
                        withLoadBalancer(new LoadBalancer(servers(URL), null, null,
                                new Sticky(new StickyCookie(null, null, null, null, null, null, null)), null))),
                arguments("sticky cookie settings",
                        labels("proxy.http.services.app.loadbalancer.sticky.cookie.name=sid",
                                "proxy.http.services.app.loadbalancer.sticky.cookie.secure=true",
                                "proxy.http.services.app.loadbalancer.sticky.cookie.samesite=Strict"),
                        withLoadBalancer(new LoadBalancer(servers(URL), null, null,
                                new Sticky(new StickyCookie("sid", true, null, "strict", null, null, null)), null))),
                arguments("keys are case-insensitive, names keep their spelling",
                        labels("PROXY.HTTP.Routers.Web.RULE=Host(`w`)", "Proxy.Http.Services.App.LoadBalancer.Server.Port=9000"),
                        http(map("Web", router("App", "Host(`w`)")), map("App", lb("http://127.0.0.2:9000")))),
                arguments("two routers, one with a rule, one with the default",
                        labels("proxy.http.routers.a.rule=Path(`/a`)", "proxy.http.routers.b.entrypoints=web"),
                        http(map("a", router("app", "Path(`/a`)"), "b", new Router(list("web"), null, "app", RULE, null, null)), APP)),
                arguments("two services and no router: no router",
                        labels("proxy.http.services.a.loadbalancer.server.port=9001", "proxy.http.services.b.loadbalancer.server.port=9002"),
                        http(Map.of(), map("a", lb("http://127.0.0.2:9001"), "b", lb("http://127.0.0.2:9002")))),
                arguments("two services and a router naming one",
                        labels("proxy.http.routers.web.service=b", "proxy.http.services.a.loadbalancer.passhostheader=true",
                                "proxy.http.services.b.loadbalancer.server.port=9002"),
                        http(map("web", router("b", RULE)), map("a", lb(URL), "b", lb("http://127.0.0.2:9002")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("items")
    void builds_the_whole_configuration(String description, Map<String, String> labels, DynamicConfig expected) {
        BuildResult result = build(item(), labels);

        assertThat(result.config()).isEqualTo(expected);
        assertThat(result.problems()).isEmpty();
    }

    static Stream<Arguments> itemFacts() {
        return Stream.of(
                arguments("IPv6 address gets brackets", item("app", "::1", 8080), labels(),
                        http(map("app", router("app", RULE)), map("app", lb("http://[::1]:8080")))),
                arguments("bracketed IPv6 address", item("app", "[::1]", 8080), labels(),
                        http(map("app", router("app", RULE)), map("app", lb("http://[::1]:8080")))),
                arguments("host name address", item("app", "localhost", 8080), labels(),
                        http(map("app", router("app", RULE)), map("app", lb("http://localhost:8080")))),
                arguments("no item port, port label", item("app", "127.0.0.2", null),
                        labels("proxy.http.services.app.loadbalancer.server.port=81"),
                        http(map("app", router("app", RULE)), map("app", lb("http://127.0.0.2:81")))),
                arguments("item port 0 counts as none when a label gives the port", item("app", "127.0.0.2", 0),
                        labels("proxy.http.services.app.loadbalancer.server.port=81"),
                        http(map("app", router("app", RULE)), map("app", lb("http://127.0.0.2:81")))),
                arguments("port mapper turns a container port into the host port",
                        item().withPortMapper(p -> p == 80 ? 32768 : p),
                        labels("proxy.http.services.app.loadbalancer.server.port=80"),
                        http(map("app", router("app", RULE)), map("app", lb("http://127.0.0.2:32768")))),
                arguments("port mapper leaves the item's own port alone",
                        item().withPortMapper(p -> 1), labels(), DEFAULTS),
                arguments("url label needs no port", item("app", "127.0.0.2", null),
                        labels("proxy.http.services.app.loadbalancer.server.url=http://127.0.0.4:81"),
                        http(map("app", router("app", RULE)), map("app", lb("http://127.0.0.4:81")))),
                arguments("default name is the router and service name", item("my-svc-v2", "127.0.0.2", 8080), labels(),
                        http(map("my-svc-v2", router("my-svc-v2", "Host(`my-svc-v2`)")), map("my-svc-v2", lb(URL)))),
                arguments("rule name differs from default name (Consul raw name)",
                        item().withRuleData("My_App", Map.of()), labels(),
                        http(map("app", router("app", "Host(`My-App`)")), APP)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("itemFacts")
    void uses_the_item_address_port_and_names(String description, Item item, Map<String, String> labels,
                                              DynamicConfig expected) {
        BuildResult result = build(item, labels);

        assertThat(result.config()).isEqualTo(expected);
        assertThat(result.problems()).isEmpty();
    }

    static Stream<Arguments> droppedRouters() {
        DefaultRule byLabel = DefaultRule.compile("Host(`{{ index .Labels \"host\" }}`)");
        DefaultRule onlyLabel = DefaultRule.compile("{{ index .Labels \"rule\" }}");
        return Stream.of(
                arguments("default rule from a label", item().withRuleData("app", Map.of("host", "a.example")), byLabel,
                        labels(), http(map("app", router("app", "Host(`a.example`)")), APP), list()),
                arguments("default rule renders empty: no router, the service stays", item(), onlyLabel,
                        labels(), http(Map.of(), APP),
                        list("consul service app: router app has no rule and the default rule "
                                + "\"{{ index .Labels \"rule\" }}\" renders empty for this item")),
                arguments("an explicit rule does not need the default", item(), onlyLabel,
                        labels("proxy.http.routers.web.rule=Path(`/`)"), http(map("web", router("app", "Path(`/`)")), APP), list()),
                arguments("router without service among several: that router is dropped", item(), Configs.HOST_RULE,
                        labels("proxy.http.routers.web.rule=Path(`/`)", "proxy.http.routers.api.service=b",
                                "proxy.http.services.a.loadbalancer.server.port=9001",
                                "proxy.http.services.b.loadbalancer.server.port=9002"),
                        http(map("api", router("b", RULE)), map("a", lb("http://127.0.0.2:9001"), "b", lb("http://127.0.0.2:9002"))),
                        list("consul service app: router web has no service and the item defines several")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("droppedRouters")
    void default_rule_data_and_dropped_routers(String description, Item item, DefaultRule rule,
                                               Map<String, String> labels, DynamicConfig expected, List<String> problems) {
        BuildResult result = build(item, labels, rule);

        assertThat(result.config()).isEqualTo(expected);
        assertThat(result.problems()).extracting(Problem::message).containsExactlyElementsOf(problems);
    }
}
