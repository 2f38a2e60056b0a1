package dev.proxy.provider.clustertasks;

import static dev.proxy.config.label.Configs.http;
import static dev.proxy.config.label.Configs.lb;
import static dev.proxy.config.label.Configs.map;
import static dev.proxy.config.label.Configs.router;
import static dev.proxy.config.label.Configs.servers;
import static dev.proxy.config.label.Configs.service;
import static dev.proxy.config.label.Configs.split;
import static dev.proxy.config.label.Configs.weightedLb;
import static dev.proxy.provider.clustertasks.Tasks.anywhere;
import static dev.proxy.provider.clustertasks.Tasks.bridge;
import static dev.proxy.provider.clustertasks.Tasks.fargate;
import static dev.proxy.provider.clustertasks.Tasks.hostMode;
import static dev.proxy.provider.clustertasks.Tasks.list;
import static dev.proxy.provider.clustertasks.Tasks.mapping;
import static dev.proxy.provider.clustertasks.Tasks.settings;
import static dev.proxy.provider.clustertasks.Tasks.udp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HealthCheck;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.RouterTls;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.provider.clustertasks.TaskContainer.Host;
import dev.proxy.provider.clustertasks.TaskContainer.NetworkMode;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Task containers → the whole {@code clusterTasks} configuration and one explanation per container. Unless a row says
 * otherwise: default settings, cluster {@code prod}, container {@code app} of a task in service {@code web} (name
 * {@code service-web-app}); Fargate tasks at 127.0.0.10 with container port 80; bridge tasks on EC2 instance
 * {@code i-1} at 127.0.1.1 with port 80 bound to 32768.
 */
class TaskConfigBuilderTest {

    private static final String NAME = "service-web-app";
    private static final String RULE = "Host(`service-web-app`)";
    private static final String FARGATE = "http://127.0.0.10:80";
    private static final String EC2 = "http://127.0.1.1:32768";
    private static final String EXPOSED = "exposed: routers service-web-app; services service-web-app";
    private static final DynamicConfig EMPTY = http(map(), map());

    /** The default router and service for one container at {@code url}. */
    private static DynamicConfig one(String url) {
        return http(map(NAME, router(NAME, RULE)), map(NAME, lb(url)));
    }

    private static String skipped(String reason) {
        return "skipped: " + reason;
    }

    private static String invalid(String task, String reason) {
        return "skipped: ECS task " + task + " container app" + reason;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // defaults and names
                arguments("fargate task without labels: default router and service",
                        settings(), list(fargate("t1")), one(FARGATE), List.of(EXPOSED)),
                arguments("standalone task: group family:<family>",
                        settings(), list(fargate("t1").group("family:api")),
                        http(map("family-api-app", router("family-api-app", "Host(`family-api-app`)")),
                                map("family-api-app", lb(FARGATE))),
                        List.of("exposed: routers family-api-app; services family-api-app")),
                arguments("only the first colon of the group is a dash, the name is normalized",
                        settings(), list(fargate("t1").group("service:web:v2").container("my_app.v2")),
                        http(map("service-web-v2-my-app-v2", router("service-web-v2-my-app-v2", "Host(`service-web-v2-my-app-v2`)")),
                                map("service-web-v2-my-app-v2", lb(FARGATE))),
                        List.of("exposed: routers service-web-v2-my-app-v2; services service-web-v2-my-app-v2")),
                arguments("defaultRule sees every docker label, prefixed or not",
                        settings("defaultRule=Host(`{{ index .Labels \"domain\" }}`) && PathPrefix(`/{{ .Name }}`)"),
                        list(fargate("t1").labels("domain=shop.example")),
                        http(map(NAME, router(NAME, "Host(`shop.example`) && PathPrefix(`/service-web-app`)")),
                                map(NAME, lb(FARGATE))), List.of(EXPOSED)),
                arguments("defaultRule rendering empty: the service stays, the router is left out",
                        settings("defaultRule={{ index .Labels \"domain\" }}"), list(fargate("t1")),
                        http(map(), map(NAME, lb(FARGATE))),
                        List.of("exposed: routers (none); services service-web-app; ECS task t1 container app: router "
                                + "service-web-app has no rule and the default rule \"{{ index .Labels \"domain\" }}\" renders empty for this item")),
                arguments("prefix option: its labels are configuration, proxy.* ones are not",
                        settings("prefix=edge"),
                        list(fargate("t1").labels("edge.http.routers.web.rule=Host(`edge.example`)",
                                "proxy.http.routers.other.rule=Host(`x`)")),
                        http(map("web", router(NAME, "Host(`edge.example`)")), map(NAME, lb(FARGATE))),
                        List.of("exposed: routers web; services service-web-app")),

                // network modes
                arguments("awsvpc: hostPort 0 means the container port",
                        settings(), list(fargate("t1").mappings(mapping(8080, 0))), one("http://127.0.0.10:8080"),
                        List.of(EXPOSED)),
                arguments("awsvpc: the lowest of several mapped ports",
                        settings(), list(fargate("t1").mappings(mapping(9090, 9090), mapping(8080, 8080))),
                        one("http://127.0.0.10:8080"), List.of(EXPOSED)),
                arguments("awsvpc: IPv6 network interface in brackets",
                        settings(), list(fargate("t1").eni("::1")), one("http://[::1]:80"), List.of(EXPOSED)),
                arguments("awsvpc without network interface address: skipped",
                        settings(), list(fargate("t1").eni(null)), EMPTY,
                        List.of(skipped("awsvpc network mode but the container has no network interface address"))),
                arguments("bridge on EC2: instance address and dynamic host port",
                        settings(), list(bridge("t1")), one(EC2), List.of(EXPOSED)),
                arguments("bridge: the lowest bound host port",
                        settings(), list(bridge("t1").mappings(mapping(80, 0), mapping(81, 0))
                                .bindings(mapping(80, 40001), mapping(81, 40000))),
                        one("http://127.0.1.1:40000"), List.of(EXPOSED)),
                arguments("host mode: instance address and the container's port",
                        settings(), list(hostMode("t1")), one("http://127.0.1.1:8080"), List.of(EXPOSED)),
                arguments("host mode without bindings: the mapped container port",
                        settings(), list(hostMode("t1").bindings()), one("http://127.0.1.1:8080"), List.of(EXPOSED)),
                arguments("bridge task not on a container instance: skipped",
                        settings(), list(bridge("t1").host(null)), EMPTY,
                        List.of(skipped("bridge network mode but the task is not on a container instance"))),
                arguments("ECS Anywhere with ecsAnywhere: the SSM address",
                        settings("ecsAnywhere=true"), list(anywhere("t1")), one("http://127.0.2.1:32768"),
                        List.of(EXPOSED)),
                arguments("ECS Anywhere without ecsAnywhere: skipped, saying so",
                        settings(), list(anywhere("t1")), EMPTY,
                        List.of(skipped("runs on ECS Anywhere instance mi-1: set ecsAnywhere to discover it"))),
                arguments("instance without address: the fetch's reason",
                        settings(), list(bridge("t1").host(new Host("ci-9", "i-9", null, "EC2 instance i-9 is stopped, not running"))),
                        EMPTY, List.of(skipped("EC2 instance i-9 is stopped, not running"))),
                arguments("network mode none: skipped",
                        settings(), list(fargate("t1").mode(NetworkMode.NONE)), EMPTY,
                        List.of(skipped("network mode none: the task has no network"))),

                // ports
                arguments("UDP ports are no backends: port missing",
                        settings(), list(fargate("t1").mappings(udp(53, 53))), EMPTY,
                        List.of(invalid("t1", ": service service-web-app: port is missing: the item has no port and no loadbalancer.server.port label"))),
                arguments("UDP beside TCP: the TCP port",
                        settings(), list(fargate("t1").mappings(udp(53, 53), mapping(8080, 8080))),
                        one("http://127.0.0.10:8080"), List.of(EXPOSED)),
                arguments("port label naming a container port: its bound host port",
                        settings(), list(bridge("t1").mappings(mapping(80, 0), mapping(9000, 0))
                                .bindings(mapping(80, 32768), mapping(9000, 32769))
                                .labels("proxy.http.services.api.loadbalancer.server.port=9000")),
                        http(map("service-web-app", router("api", RULE)), map("api", lb("http://127.0.1.1:32769"))),
                        List.of("exposed: routers service-web-app; services api")),
                arguments("port label naming no container port: used as given",
                        settings(), list(bridge("t1").labels("proxy.http.services.api.loadbalancer.server.port=9100")),
                        http(map(NAME, router("api", RULE)), map("api", lb("http://127.0.1.1:9100"))),
                        List.of("exposed: routers service-web-app; services api")),
                arguments("port label on awsvpc: the container port itself",
                        settings(), list(fargate("t1").mappings(mapping(80, 80), mapping(8443, 8443))
                                .labels("proxy.http.services.app.loadbalancer.server.port=8443")),
                        http(map(NAME, router("app", RULE)), map("app", lb("http://127.0.0.10:8443"))),
                        List.of("exposed: routers service-web-app; services app")),
                arguments("no port mapping but a port label",
                        settings(), list(fargate("t1").mappings().labels("proxy.http.services.app.loadbalancer.server.port=3000")),
                        http(map(NAME, router("app", RULE)), map("app", lb("http://127.0.0.10:3000"))),
                        List.of("exposed: routers service-web-app; services app")),
                arguments("no port at all: skipped",
                        settings(), list(fargate("t1").mappings()), EMPTY,
                        List.of(invalid("t1", ": service service-web-app: port is missing: the item has no port and no loadbalancer.server.port label"))),
                arguments("port label that is no port: skipped",
                        settings(), list(fargate("t1").labels("proxy.http.services.app.loadbalancer.server.port=http")),
                        EMPTY, List.of(invalid("t1", " label proxy.http.services.app.loadbalancer.server.port=http: not a port (1-65535)"))),
                arguments("scheme label",
                        settings(), list(fargate("t1").labels("proxy.http.services.app.loadbalancer.server.scheme=https")),
                        http(map(NAME, router("app", RULE)), map("app", lb("https://127.0.0.10:80"))),
                        List.of("exposed: routers service-web-app; services app")),
                arguments("url label replaces address and port",
                        settings(), list(fargate("t1").labels("proxy.http.services.app.loadbalancer.server.url=http://127.0.0.99:7000/base")),
                        http(map(NAME, router("app", RULE)), map("app", lb("http://127.0.0.99:7000/base"))),
                        List.of("exposed: routers service-web-app; services app")),

                // exposure
                arguments("exposedByDefault=false without enable: skipped",
                        settings("exposedByDefault=false"), list(fargate("t1")), EMPTY,
                        List.of(skipped("not enabled: exposedByDefault is false and there is no label proxy.enable=true"))),
                arguments("exposedByDefault=false with enable=true",
                        settings("exposedByDefault=false"), list(fargate("t1").labels("proxy.enable=true")),
                        one(FARGATE), List.of(EXPOSED)),
                arguments("enable=false hides a container exposed by default",
                        settings(), list(fargate("t1").labels("proxy.enable=false")), EMPTY,
                        List.of(skipped("disabled by label proxy.enable=false"))),
                arguments("enable key and value in any case",
                        settings("exposedByDefault=false"), list(fargate("t1").labels("PROXY.Enable= True ")),
                        one(FARGATE), List.of(EXPOSED)),
                arguments("enable neither true nor false: skipped",
                        settings(), list(fargate("t1").labels("proxy.enable=yes")), EMPTY,
                        List.of(skipped("label proxy.enable must be true or false, not \"yes\""))),
                arguments("constraints Label matching",
                        settings("constraints=Label(`team`, `shop`)"), list(fargate("t1").labels("team=shop")),
                        one(FARGATE), List.of(EXPOSED)),
                arguments("constraints Label not matching: skipped",
                        settings("constraints=Label(`team`, `shop`)"), list(fargate("t1").labels("team=ops")), EMPTY,
                        List.of(skipped("labels do not match constraints Label(`team`, `shop`)"))),
                arguments("constraints LabelRegex, negation, a missing label is empty",
                        settings("constraints=LabelRegex(`env`, `^prod`) && !Label(`internal`, `true`)"),
                        list(fargate("t1").labels("env=production"),
                                fargate("t2").labels("env=production", "internal=true"),
                                fargate("t3")),
                        one(FARGATE),
                        List.of(EXPOSED,
                                skipped("labels do not match constraints LabelRegex(`env`, `^prod`) && !Label(`internal`, `true`)"),
                                skipped("labels do not match constraints LabelRegex(`env`, `^prod`) && !Label(`internal`, `true`)"))),
                arguments("task not yet RUNNING: skipped",
                        settings(), list(fargate("t1").status("PENDING")), EMPTY,
                        List.of(skipped("task is PENDING, not RUNNING"))),
                arguments("container stopped in a running task: skipped",
                        settings(), list(fargate("t1").containerStatus("STOPPED")), EMPTY,
                        List.of(skipped("container is STOPPED, not RUNNING"))),
                arguments("UNHEALTHY task: skipped even without healthyTasksOnly",
                        settings(), list(fargate("t1").health("UNHEALTHY")), EMPTY, List.of(skipped("task is UNHEALTHY"))),
                arguments("healthyTasksOnly: HEALTHY kept, UNKNOWN and UNHEALTHY skipped",
                        settings("healthyTasksOnly=true"),
                        list(fargate("t1").health("HEALTHY"), fargate("t2").health("UNKNOWN").eni("127.0.0.11"),
                                fargate("t3").health("UNHEALTHY").eni("127.0.0.12")),
                        one(FARGATE),
                        List.of(EXPOSED,
                                skipped("task health is UNKNOWN and healthyTasksOnly admits only HEALTHY tasks (a task without container health checks is UNKNOWN)"),
                                skipped("task health is UNHEALTHY and healthyTasksOnly admits only HEALTHY tasks"))),
                arguments("container without definition (Service Connect proxy): skipped",
                        settings(), list(fargate("t1").container("ecs-service-connect-x").undefined()), EMPTY,
                        List.of(skipped("no container definition in the task definition (an ECS-managed container, such as the Service Connect proxy)"))),

                // labels and merging
                arguments("two containers of one task: two routers and services",
                        settings(), list(fargate("t1").labels("proxy.http.routers.shop.rule=Host(`shop.example`)"),
                                fargate("t1").container("envoy").mappings(mapping(9901, 9901))),
                        http(map("shop", router(NAME, "Host(`shop.example`)"),
                                        "service-web-envoy", router("service-web-envoy", "Host(`service-web-envoy`)")),
                                map(NAME, lb(FARGATE), "service-web-envoy", lb("http://127.0.0.10:9901"))),
                        List.of("exposed: routers shop; services service-web-app",
                                "exposed: routers service-web-envoy; services service-web-envoy")),
                arguments("tasks of one service: one load balancer over their servers, in task order",
                        settings(), list(fargate("t2").eni("127.0.0.11"), fargate("t1"), bridge("t3")),
                        http(map(NAME, router(NAME, RULE)), map(NAME, lb(FARGATE, "http://127.0.0.11:80", EC2))),
                        List.of(EXPOSED, EXPOSED, EXPOSED)),
                arguments("a router defined differently by two tasks: left out, services kept",
                        settings(), list(fargate("t1").labels("proxy.http.routers.web.rule=Host(`a`)"),
                                fargate("t2").eni("127.0.0.11").labels("proxy.http.routers.web.rule=Host(`b`)")),
                        http(map(), map(NAME, lb(FARGATE, "http://127.0.0.11:80"))),
                        List.of("exposed: routers web; services service-web-app; router web left out: defined differently by ECS task t1 container app, ECS task t2 container app",
                                "exposed: routers web; services service-web-app; router web left out: defined differently by ECS task t1 container app, ECS task t2 container app")),
                arguments("router keys: entrypoints, middlewares, priority, tls",
                        settings(), list(fargate("t1").labels("proxy.http.routers.web.entrypoints=websecure",
                                "proxy.http.routers.web.middlewares=auth@file, lan",
                                "proxy.http.routers.web.priority=42",
                                "proxy.http.routers.web.tls.certresolver=le")),
                        http(map("web", new Router(List.of("websecure"), List.of("auth@file", "lan"), NAME, RULE, 42L,
                                new RouterTls("le", null))), map(NAME, lb(FARGATE))),
                        List.of("exposed: routers web; services service-web-app")),
                arguments("middleware labels",
                        settings(), list(fargate("t1").labels("proxy.http.middlewares.lan.ipallowlist.sourcerange=127.0.0.0/8")),
                        new DynamicConfig(new dev.proxy.config.dynamic.HttpConfig(map(NAME, router(NAME, RULE)),
                                map(NAME, lb(FARGATE)), map("lan", new dev.proxy.config.dynamic.Middleware(
                                        new dev.proxy.config.dynamic.IpAllowList(List.of("127.0.0.0/8"), null, null))))),
                        List.of(EXPOSED + "; middlewares lan")),
                arguments("two services and explicit routers",
                        settings(), list(fargate("t1").mappings(mapping(80, 80), mapping(9090, 9090)).labels(
                                "proxy.http.routers.site.rule=Host(`site`)", "proxy.http.routers.site.service=site",
                                "proxy.http.routers.admin.rule=Host(`admin`)", "proxy.http.routers.admin.service=admin",
                                "proxy.http.services.site.loadbalancer.server.port=80",
                                "proxy.http.services.admin.loadbalancer.server.port=9090")),
                        http(map("admin", router("admin", "Host(`admin`)"), "site", router("site", "Host(`site`)")),
                                map("admin", lb("http://127.0.0.10:9090"), "site", lb(FARGATE))),
                        List.of("exposed: routers admin, site; services admin, site")),
                arguments("two services and no router: no router",
                        settings(), list(fargate("t1").labels("proxy.http.services.a.loadbalancer.server.port=80",
                                "proxy.http.services.b.loadbalancer.server.port=81")),
                        http(map(), map("a", lb(FARGATE), "b", lb("http://127.0.0.10:81"))),
                        List.of("exposed: routers (none); services a, b")),
                arguments("canary: two task groups, one router, service weights",
                        settings(), list(
                                fargate("t1").group("service:shop-v1").labels("proxy.http.routers.shop.rule=Host(`shop`)",
                                        "proxy.http.services.shop-v1.loadbalancer.weight=90"),
                                fargate("t2").group("service:shop-v2").eni("127.0.0.11").labels("proxy.http.routers.shop.rule=Host(`shop`)",
                                        "proxy.http.services.shop-v2.loadbalancer.weight=10")),
                        http(map("shop", router("shop-canary", "Host(`shop`)")),
                                map("shop-v1", weightedLb(90, FARGATE), "shop-v2", weightedLb(10, "http://127.0.0.11:80"),
                                        "shop-canary", split("shop-v1", 90, "shop-v2", 10))),
                        List.of("exposed: routers shop; services shop-v1", "exposed: routers shop; services shop-v2")),
                arguments("health check and sticky labels",
                        settings(), list(fargate("t1").labels("proxy.http.services.app.loadbalancer.healthcheck.path=/health",
                                "proxy.http.services.app.loadbalancer.healthcheck.interval=5s",
                                "proxy.http.services.app.loadbalancer.passhostheader=false")),
                        http(map(NAME, router("app", RULE)), map("app", service(new LoadBalancer(
                                List.of(Server.of(FARGATE)), false,
                                new HealthCheck("/health", Duration.ofSeconds(5), null, null, null, null, null, null, null),
                                null, null)))),
                        List.of("exposed: routers service-web-app; services app")),
                arguments("tcp labels: the container is skipped, its neighbours are not",
                        settings(), list(fargate("t1").labels("proxy.tcp.routers.db.rule=HostSNI(`*`)"),
                                fargate("t1").container("web").mappings(mapping(8080, 8080))),
                        http(map("service-web-web", router("service-web-web", "Host(`service-web-web`)")),
                                map("service-web-web", lb("http://127.0.0.10:8080"))),
                        List.of(invalid("t1", " label proxy.tcp.routers.db.rule=HostSNI(`*`): tcp/udp routing is not supported"),
                                "exposed: routers service-web-web; services service-web-web")),
                arguments("no tasks: empty configuration", settings(), list(), EMPTY, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void buildsTheWholeConfigurationAndExplainsEveryContainer(String description, ClusterTasksConfig settings,
                                                              List<TaskContainer> containers, DynamicConfig expected,
                                                              List<String> explained) {
        TaskConfigBuilder.Built built = new TaskConfigBuilder(settings).build(containers);

        assertThat(built.config()).isEqualTo(expected);
        assertThat(built.explanations()).map(e -> (e.exposed() ? "exposed: " : "skipped: ") + e.detail())
                .containsExactlyElementsOf(explained);
    }

    @Test
    void explanationsNameTheClusterTaskContainerAndDefaultName() {
        Explanation e = new TaskConfigBuilder(settings("exposedByDefault=false")).build(list(fargate("t1"))).explanations().get(0);

        assertThat(e).isEqualTo(new Explanation("prod", "t1", "app", NAME, false,
                "not enabled: exposedByDefault is false and there is no label proxy.enable=true"));
        assertThat(e.toString()).isEqualTo("cluster prod task t1 container app (service-web-app): skipped: "
                + "not enabled: exposedByDefault is false and there is no label proxy.enable=true");
    }

    @Test
    void resourcesLeftOutAreReportedAsErrorsButPlainSkipsAreNot() {
        TaskConfigBuilder.Built built = new TaskConfigBuilder(settings()).build(list(
                fargate("t1").labels("proxy.enable=false"),
                fargate("t2").labels("proxy.http.services.app.loadbalancer.server.port=http")));

        assertThat(built.errors()).containsExactly(
                "ECS task t2 container app label proxy.http.services.app.loadbalancer.server.port=http: not a port (1-65535)");
    }

    @Test
    void theOrderOfTheInputDoesNotChangeTheConfiguration() {
        List<TaskContainer> forward = list(fargate("t1"), fargate("t2").eni("127.0.0.11"), bridge("t3"));
        List<TaskContainer> backward = List.of(forward.get(2), forward.get(1), forward.get(0));
        TaskConfigBuilder builder = new TaskConfigBuilder(settings());

        assertThat(builder.build(backward).config()).isEqualTo(builder.build(forward).config());
        assertThat(builder.build(backward).config().http().services().get(NAME).loadBalancer().servers())
                .isEqualTo(servers(FARGATE, "http://127.0.0.11:80", EC2));
    }
}
