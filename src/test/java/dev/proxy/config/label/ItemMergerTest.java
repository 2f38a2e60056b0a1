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
import static dev.proxy.config.label.Configs.split;
import static dev.proxy.config.label.Configs.weightedLb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.IpAllowList;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Middleware;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several items through decode, defaults and {@link ItemMerger}: the whole merged configuration and the problems.
 * Each item is written {@code "name@address:port", label…}; its origin is {@code name@address}.
 */
class ItemMergerTest {

    private static final String V1 = "proxy.http.services.app-v1.loadbalancer.weight=90";
    private static final String V2 = "proxy.http.services.app-v2.loadbalancer.weight=10";
    private static final String APP_ROUTER = "proxy.http.routers.app.rule=Host(`app.example`)";
    private static final String ALLOW = "proxy.http.middlewares.internal.ipallowlist.sourcerange=";

    /** One item: the first string is {@code name@address:port}, the rest are labels. */
    private static List<String> at(String where, String... labels) {
        List<String> out = new ArrayList<>(List.of(where));
        out.addAll(List.of(labels));
        return out;
    }

    private static BuildResult mergeItems(List<List<String>> items) {
        List<ItemConfig> configs = new ArrayList<>();
        for (List<String> spec : items) {
            String[] where = spec.get(0).split("[@]|:(?=[0-9]+$)");
            Item item = item(where[0], where[1], Integer.parseInt(where[2]));
            BuildResult one = build(item, labels(spec.subList(1, spec.size()).toArray(String[]::new)));
            assertThat(one.problems()).isEmpty();
            configs.add(new ItemConfig(where[0] + "@" + where[1], one.config()));
        }
        return ItemMerger.merge(configs);
    }

    static Stream<Arguments> merges() {
        return Stream.of(
                arguments("no items: empty configuration", List.of(), http(Map.of(), Map.of()), list()),
                arguments("one item unchanged", List.of(at("web@127.0.0.2:80")),
                        http(map("web", router("web", "Host(`web`)")), map("web", lb("http://127.0.0.2:80"))), list()),
                arguments("two instances of a service: one load balancer, two servers",
                        List.of(at("web@127.0.0.2:80"), at("web@127.0.0.3:80")),
                        http(map("web", router("web", "Host(`web`)")), map("web", lb("http://127.0.0.2:80", "http://127.0.0.3:80"))), list()),
                arguments("the same URL twice is one server",
                        List.of(at("web@127.0.0.2:80"), at("web@127.0.0.2:80")),
                        http(map("web", router("web", "Host(`web`)")), map("web", lb("http://127.0.0.2:80"))), list()),
                arguments("equal settings merge: health check and sticky on both instances",
                        List.of(at("web@127.0.0.2:80", "proxy.http.services.web.loadbalancer.passhostheader=false"),
                                at("web@127.0.0.3:80", "proxy.http.services.web.loadbalancer.passhostheader=false")),
                        http(map("web", router("web", "Host(`web`)")), map("web", service(new LoadBalancer(
                                servers("http://127.0.0.2:80", "http://127.0.0.3:80"), false, null, null, null)))), list()),
                arguments("different services of different items live side by side",
                        List.of(at("web@127.0.0.2:80"), at("api@127.0.0.3:81")),
                        http(map("web", router("web", "Host(`web`)"), "api", router("api", "Host(`api`)")),
                                map("web", lb("http://127.0.0.2:80"), "api", lb("http://127.0.0.3:81"))), list()),
                arguments("service settings differ: the service is dropped, routers stay",
                        List.of(at("web@127.0.0.2:80"), at("web@127.0.0.3:80", "proxy.http.services.web.loadbalancer.passhostheader=false")),
                        http(map("web", router("web", "Host(`web`)")), Map.of()),
                        list("service web defined multiple times with different configurations (origins web@127.0.0.2, web@127.0.0.3)")),
                arguments("router rules differ: the router is dropped, the service merges",
                        List.of(at("web@127.0.0.2:80", "proxy.http.routers.web.rule=Path(`/a`)"),
                                at("web@127.0.0.3:80", "proxy.http.routers.web.rule=Path(`/b`)")),
                        http(Map.of(), map("web", lb("http://127.0.0.2:80", "http://127.0.0.3:80"))),
                        list("router web defined multiple times with different configurations (origins web@127.0.0.2, web@127.0.0.3)")),
                arguments("equal middlewares are one",
                        List.of(at("web@127.0.0.2:80", ALLOW + "127.0.0.1/32"), at("web@127.0.0.3:80", ALLOW + "127.0.0.1/32")),
                        http(map("web", router("web", "Host(`web`)")), map("web", lb("http://127.0.0.2:80", "http://127.0.0.3:80")),
                                map("internal", new Middleware(new IpAllowList(list("127.0.0.1/32"), null, null)))), list()),
                arguments("middlewares differ: dropped",
                        List.of(at("web@127.0.0.2:80", ALLOW + "127.0.0.1/32"), at("api@127.0.0.3:80", ALLOW + "127.0.0.0/8")),
                        http(map("web", router("web", "Host(`web`)"), "api", router("api", "Host(`api`)")),
                                map("web", lb("http://127.0.0.2:80"), "api", lb("http://127.0.0.3:80"))),
                        list("middleware internal defined multiple times with different configurations (origins web@127.0.0.2, api@127.0.0.3)")),
                arguments("canary: one router over app-v1 (90) and app-v2 (10)",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1), at("app-v2@127.0.0.3:80", APP_ROUTER, V2)),
                        http(map("app", router("app-canary", "Host(`app.example`)")),
                                map("app-v1", weightedLb(90, "http://127.0.0.2:80"), "app-v2", weightedLb(10, "http://127.0.0.3:80"),
                                        "app-canary", split("app-v1", 90, "app-v2", 10))), list()),
                arguments("canary with two instances of v1",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1), at("app-v2@127.0.0.3:80", APP_ROUTER, V2),
                                at("app-v1@127.0.0.4:80", APP_ROUTER, V1)),
                        http(map("app", router("app-canary", "Host(`app.example`)")),
                                map("app-v1", weightedLb(90, "http://127.0.0.2:80", "http://127.0.0.4:80"),
                                        "app-v2", weightedLb(10, "http://127.0.0.3:80"), "app-canary", split("app-v1", 90, "app-v2", 10))), list()),
                arguments("canary needs a weight on every service",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1), at("app-v2@127.0.0.3:80", APP_ROUTER)),
                        http(Map.of(), map("app-v1", weightedLb(90, "http://127.0.0.2:80"), "app-v2", lb("http://127.0.0.3:80"))),
                        list("router app defined multiple times with different configurations (origins app-v1@127.0.0.2, "
                                + "app-v2@127.0.0.3); a canary split needs loadbalancer.weight on every service (missing on app-v2)")),
                arguments("canary needs otherwise equal routers",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1),
                                at("app-v2@127.0.0.3:80", APP_ROUTER, V2, "proxy.http.routers.app.entrypoints=web")),
                        http(Map.of(), map("app-v1", weightedLb(90, "http://127.0.0.2:80"), "app-v2", weightedLb(10, "http://127.0.0.3:80"))),
                        list("router app defined multiple times with different configurations (origins app-v1@127.0.0.2, app-v2@127.0.0.3)")),
                arguments("canary service name taken",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1, "proxy.http.routers.app.service=app-v1",
                                        "proxy.http.services.app-canary.loadbalancer.server.port=81"),
                                at("app-v2@127.0.0.3:80", APP_ROUTER, V2)),
                        http(Map.of(), map("app-v1", weightedLb(90, "http://127.0.0.2:80"), "app-canary", lb("http://127.0.0.2:81"),
                                "app-v2", weightedLb(10, "http://127.0.0.3:80"))),
                        list("router app defined multiple times with different configurations (origins app-v1@127.0.0.2, "
                                + "app-v2@127.0.0.3); the canary service app-canary cannot be made: a service has that name")),
                arguments("canary member in conflict: no split",
                        List.of(at("app-v1@127.0.0.2:80", APP_ROUTER, V1), at("app-v2@127.0.0.3:80", APP_ROUTER, V2),
                                at("app-v2@127.0.0.4:80", APP_ROUTER, "proxy.http.services.app-v2.loadbalancer.weight=20")),
                        http(Map.of(), map("app-v1", weightedLb(90, "http://127.0.0.2:80"))),
                        list("service app-v2 defined multiple times with different configurations (origins app-v2@127.0.0.3, app-v2@127.0.0.4)",
                                "router app defined multiple times with different configurations (origins app-v1@127.0.0.2, app-v2@127.0.0.3, "
                                        + "app-v2@127.0.0.4); a canary split needs loadbalancer.weight on every service (missing on app-v2)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void merges_items(String description, List<List<String>> items, DynamicConfig expected, List<String> problems) {
        BuildResult result = mergeItems(items);

        assertThat(result.config()).isEqualTo(expected);
        assertThat(result.problems()).extracting(Problem::message).containsExactlyElementsOf(problems);
    }

    @Test
    void problems_name_the_resource_and_every_origin_for_explain() {
        BuildResult result = mergeItems(List.of(at("web@127.0.0.2:80", "proxy.http.routers.web.rule=Path(`/a`)"),
                at("web@127.0.0.3:80", "proxy.http.routers.web.rule=Path(`/b`)")));

        assertThat(result.problems()).singleElement().satisfies(p -> {
            assertThat(p.resource()).isEqualTo("router web");
            assertThat(p.origins()).containsExactly("web@127.0.0.2", "web@127.0.0.3");
        });
    }
}
