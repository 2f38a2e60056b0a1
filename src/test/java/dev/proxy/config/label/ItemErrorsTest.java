package dev.proxy.config.label;

import static dev.proxy.config.label.Configs.build;
import static dev.proxy.config.label.Configs.item;
import static dev.proxy.config.label.Configs.labels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.config.decode.ConfigException;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Items that are invalid as a whole: the provider skips them and logs exactly this one line. */
class ItemErrorsTest {

    private static final String TAG = "consul service app tag ";
    private static final String SVC = "proxy.http.services.app.loadbalancer.";

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("tcp is not supported", item(), labels("proxy.tcp.routers.db.rule=HostSNI(`*`)"),
                        TAG + "proxy.tcp.routers.db.rule=HostSNI(`*`): tcp/udp routing is not supported"),
                arguments("udp is not supported, any case", item(), labels("Proxy.UDP.services.dns.loadbalancer.server.port=53"),
                        TAG + "Proxy.UDP.services.dns.loadbalancer.server.port=53: tcp/udp routing is not supported"),
                arguments("CR LF in a value (header injection)", item(),
                        labels("proxy.http.routers.web.rule=Host(`a`)\r\nX-Injected: 1"),
                        TAG + "proxy.http.routers.web.rule=Host(`a`)\\r\\nX-Injected: 1: "
                                + "control characters (CR, LF, NUL, …) are not allowed in a value"),
                arguments("LF alone in a value", item(), labels(SVC + "healthcheck.path=/h\nx"),
                        TAG + SVC + "healthcheck.path=/h\\nx: control characters (CR, LF, NUL, …) are not allowed in a value"),
                arguments("NUL in a value", item(), labels("proxy.http.routers.web.entrypoints=web\0"),
                        TAG + "proxy.http.routers.web.entrypoints=web\\0: control characters (CR, LF, NUL, …) are not allowed in a value"),
                arguments("control character in a key", item(), labels("proxy.http.routers.w\reb.rule=Path(`/`)"),
                        TAG + "proxy.http.routers.w\\reb.rule=Path(`/`): control characters are not allowed in a key"),
                arguments("port not a number", item(), labels(SVC + "server.port=http"),
                        TAG + SVC + "server.port=http: not a port (1-65535)"),
                arguments("port 0", item(), labels(SVC + "server.port=0"), TAG + SVC + "server.port=0: not a port (1-65535)"),
                arguments("port 65536", item(), labels(SVC + "server.port=65536"),
                        TAG + SVC + "server.port=65536: not a port (1-65535)"),
                arguments("unknown scheme", item(), labels(SVC + "server.scheme=ftp"),
                        TAG + SVC + "server.scheme=ftp: scheme must be one of " + ItemDefaults.SCHEMES),
                arguments("url and port together", item(),
                        labels(SVC + "server.url=http://127.0.0.3:80", SVC + "server.port=81"),
                        "consul service app: service app: loadbalancer.server.url cannot be combined with server.port or server.scheme"),
                arguments("url and scheme together", item(),
                        labels(SVC + "server.url=http://127.0.0.3:80", SVC + "server.scheme=https"),
                        "consul service app: service app: loadbalancer.server.url cannot be combined with server.port or server.scheme"),
                arguments("url not http", item(), labels(SVC + "server.url=file:///etc/passwd"),
                        TAG + SVC + "server.url=file:///etc/passwd: scheme must be http, https or h2c"),
                arguments("no port anywhere", item("app", "127.0.0.2", null), labels(),
                        "consul service app: service app: port is missing: the item has no port and no loadbalancer.server.port label"),
                arguments("item port out of range", item("app", "127.0.0.2", 70000), labels(),
                        "consul service app: service app: port 70000 is out of range (1-65535)"),
                arguments("mapped port out of range", item().withPortMapper(p -> 0), labels(SVC + "server.port=80"),
                        "consul service app: service app: port 0 is out of range (1-65535)"),
                arguments("address with a space", item("app", "127.0.0.2 evil", 80), labels(),
                        "consul service app: service app: address \"127.0.0.2 evil\" is not an IP address or host name"),
                arguments("address with CR LF", item("app", "h\r\nX: 1", 80), labels(),
                        "consul service app: service app: address \"h\\r\\nX: 1\" is not an IP address or host name"),
                arguments("address with a path", item("app", "127.0.0.2/x", 80), labels(),
                        "consul service app: service app: address \"127.0.0.2/x\" is not an IP address or host name"),
                arguments("IPv6 with a zone", item("app", "fe80::1%eth0", 80), labels(),
                        "consul service app: service app: address \"fe80::1%eth0\" is not an IP address or host name"),
                arguments("empty address", item("app", "", 80), labels(), "consul service app: service app: the item has no address"),
                arguments("unknown key with a hint", item(), labels("proxy.http.routers.web.rul=Path(`/`)"),
                        TAG + "proxy.http.routers.web.rul=Path(`/`): unknown key \"rul\" (did you mean \"rule\"?)"),
                arguments("bad boolean", item(), labels(SVC + "passhostheader=yes"),
                        TAG + SVC + "passhostheader=yes: not a boolean (true or false)"),
                arguments("bad duration", item(), labels(SVC + "healthcheck.path=/h", SVC + "healthcheck.interval=soon"),
                        TAG + SVC + "healthcheck.interval=soon: not a duration (examples: 10s, 1m30s, 250ms, or seconds as an integer)"),
                arguments("health check without path", item(), labels(SVC + "healthcheck.interval=5s"),
                        TAG + SVC + "healthcheck.interval: path: a health check needs a path"),
                arguments("negative loadbalancer weight", item(), labels(SVC + "weight=-1"),
                        TAG + SVC + "weight=-1: must not be negative"),
                arguments("allow list without ranges", item(), labels("proxy.http.middlewares.i.ipallowlist.rejectstatuscode=404"),
                        TAG + "proxy.http.middlewares.i.ipallowlist.rejectstatuscode: sourceRange: an allow list needs at least one range"),
                arguments("servers list form refused", item(), labels(SVC + "servers[0].url=http://127.0.0.3"),
                        TAG + SVC + "servers[0].url=http://127.0.0.3: an item is one server: write loadbalancer.server.<url|port|scheme|weight>"),
                arguments("weighted services refused", item(), labels("proxy.http.services.s.weighted.services[0].name=a"),
                        TAG + "proxy.http.services.s.weighted.services[0].name=a: weighted services cannot be declared in labels; "
                                + "give the services loadbalancer.weight and one router name for a canary split"),
                arguments("the same key twice in different case", item(),
                        labels("proxy.http.routers.web.rule=Path(`/a`)", "PROXY.http.routers.web.rule=Path(`/b`)"),
                        TAG + "proxy.http.routers.web.rule=Path(`/a`): the same key as PROXY.http.routers.web.rule (keys are case-insensitive)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses_the_item_with_one_line(String description, Item item, Map<String, String> labels, String message) {
        assertThatThrownBy(() -> build(item, labels))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\r", "\n", "\0"));
    }

    @Test
    void bounds_the_number_of_prefixed_labels() {
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i < LabelDecoder.MAX_LABELS; i++) {
            many.put("proxy.http.routers.r" + i + ".rule", "Path(`/" + i + "`)");
        }
        many.put("unrelated", "not counted");
        assertThat(LabelDecoder.decode(many, "proxy", "t").http().routers()).hasSize(LabelDecoder.MAX_LABELS);

        many.put("proxy.enable", "true");
        assertThatThrownBy(() -> LabelDecoder.decode(many, "proxy", "consul service app tag"))
                .hasMessage("consul service app tag: more than 1000 keys start with \"proxy.\"");
    }

    @Test
    void bounds_the_length_of_a_value_and_shortens_it_in_the_message() {
        String ok = "Path(`/" + "a".repeat(LabelDecoder.MAX_VALUE_LENGTH - 9) + "`)";
        assertThat(LabelDecoder.decode(Map.of("proxy.http.routers.r.rule", ok), "proxy", "t").http().routers().get("r").rule())
                .hasSize(LabelDecoder.MAX_VALUE_LENGTH);

        String tooLong = ok + "x";
        assertThatThrownBy(() -> LabelDecoder.decode(Map.of("proxy.http.routers.r.rule", tooLong), "proxy", "t"))
                .hasMessage("t proxy.http.routers.r.rule=" + tooLong.substring(0, 200) + "…: value longer than 8192 characters");
    }
}
