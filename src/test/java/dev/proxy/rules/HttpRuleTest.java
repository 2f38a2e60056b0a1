package dev.proxy.rules;

import static dev.proxy.rules.TestRequest.ip;
import static dev.proxy.rules.TestRequest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HttpRuleTest {

    static Stream<Arguments> matching() {
        TestRequest get = request().host("example.com").path("/");
        return Stream.of(
                // Host
                row("Host equal", "Host(`example.com`)", get, true),
                row("Host other", "Host(`example.com`)", get.host("example.org"), false),
                row("Host is not a suffix match", "Host(`example.com`)", get.host("www.example.com"), false),
                row("Host is not a substring match", "Host(`example.com`)", get.host("ample.com"), false),
                row("Host rule case ignored", "Host(`Example.COM`)", get, true),
                row("Host request case ignored", "Host(`example.com`)", get.host("EXAMPLE.com"), true),
                row("Host request trailing dot", "Host(`example.com`)", get.host("example.com."), true),
                row("Host rule trailing dot", "Host(`example.com.`)", get, true),
                row("Host both trailing dots", "Host(`example.com.`)", get.host("example.com."), true),
                row("Host empty request host", "Host(`example.com`)", get.host(""), false),
                row("Host(*) any host", "Host(`*`)", get.host("anything.test"), true),
                row("Host(*) even none", "Host(`*`)", get.host(""), true),
                row("Host wildcard one label", "Host(`*.example.com`)", get.host("a.example.com"), true),
                row("Host wildcard case and dot", "Host(`*.Example.com.`)", get.host("A.EXAMPLE.COM."), true),
                row("Host wildcard needs a label", "Host(`*.example.com`)", get.host("example.com"), false),
                row("Host wildcard empty label", "Host(`*.example.com`)", get.host(".example.com"), false),
                row("Host wildcard only one label", "Host(`*.example.com`)", get.host("a.b.example.com"), false),
                row("Host wildcard label boundary", "Host(`*.example.com`)", get.host("aexample.com"), false),
                row("host lower-case name", "host(`example.com`)", get, true),
                row("HOST upper-case name", "HOST(`example.com`)", get, true),
                // HostRegexp
                row("HostRegexp unanchored", "HostRegexp(`example`)", get.host("www.example.org"), true),
                row("HostRegexp anchored", "HostRegexp(`^[a-z]+\\.example\\.com$`)", get.host("api.example.com"), true),
                row("HostRegexp anchored miss", "HostRegexp(`^[a-z]+\\.example\\.com$`)", get.host("a.b.example.com"),
                        false),
                row("Hostregexp title case", "Hostregexp(`^example`)", get, true),
                // Path, PathPrefix, PathRegexp
                row("Path equal", "Path(`/a`)", get.path("/a"), true),
                row("Path trailing slash differs", "Path(`/a`)", get.path("/a/"), false),
                row("Path longer differs", "Path(`/a`)", get.path("/ab"), false),
                row("Path case matters", "Path(`/a`)", get.path("/A"), false),
                row("PathPrefix raw prefix", "PathPrefix(`/products`)", get.path("/products-for-sale"), true),
                row("PathPrefix equal", "PathPrefix(`/products`)", get.path("/products"), true),
                row("PathPrefix shorter path", "PathPrefix(`/products`)", get.path("/product"), false),
                row("PathPrefix / matches all", "PathPrefix(`/`)", get.path("/x/y"), true),
                row("PathRegexp unanchored", "PathRegexp(`admin`)", get.path("/x/admin/y"), true),
                row("PathRegexp suffix", "PathRegexp(`\\.php$`)", get.path("/x/index.php"), true),
                row("PathRegexp suffix miss", "PathRegexp(`\\.php$`)", get.path("/php"), false),
                // Method
                row("Method equal", "Method(`GET`)", get, true),
                row("Method rule upper-cased", "Method(`get`)", get, true),
                row("Method other", "Method(`POST`)", get, false),
                // Header, HeaderRegexp
                row("Header some value equal", "Header(`X-Env`, `prod`)", get.header("X-Env", "staging", "prod"), true),
                row("Header name case ignored", "Header(`x-env`, `prod`)", get.header("X-ENV", "prod"), true),
                row("Header value case matters", "Header(`X-Env`, `prod`)", get.header("X-Env", "Prod"), false),
                row("Header whole value only", "Header(`X-Env`, `prod`)", get.header("X-Env", "prod, staging"), false),
                row("Header absent", "Header(`X-Env`, `prod`)", get, false),
                row("HeaderRegexp some value", "HeaderRegexp(`User-Agent`, `curl/\\d+`)",
                        get.header("User-Agent", "wget", "curl/8.5"), true),
                row("HeaderRegexp no value", "HeaderRegexp(`User-Agent`, `curl/\\d+`)",
                        get.header("User-Agent", "curl/x"), false),
                row("HeaderRegexp absent", "HeaderRegexp(`User-Agent`, `.*`)", get, false),
                // Query, QueryRegexp
                row("Query(k) with ?k", "Query(`debug`)", get.query("debug", ""), true),
                row("Query(k) with ?k=1", "Query(`debug`)", get.query("debug", "1"), false),
                row("Query(k) with ?k=1&k", "Query(`debug`)", get.query("debug", "1", ""), true),
                row("Query(k) absent", "Query(`debug`)", get, false),
                row("Query(k, v) some value", "Query(`page`, `2`)", get.query("page", "1", "2"), true),
                row("Query(k, v) empty value", "Query(`page`, `2`)", get.query("page", ""), false),
                row("Query(k, v) absent", "Query(`page`, `2`)", get.query("other", "2"), false),
                row("QueryRegexp some value", "QueryRegexp(`id`, `^[0-9]+$`)", get.query("id", "abc", "42"), true),
                row("QueryRegexp no value", "QueryRegexp(`id`, `^[0-9]+$`)", get.query("id", "abc"), false),
                row("QueryRegexp absent", "QueryRegexp(`id`, `.*`)", get, false),
                row("QueryRegexp(k) is Query(k)", "QueryRegexp(`debug`)", get.query("debug", ""), true),
                // ClientIP (documentation and loopback ranges only)
                row("ClientIP equal", "ClientIP(`198.51.100.7`)", get.client("198.51.100.7"), true),
                row("ClientIP other", "ClientIP(`198.51.100.7`)", get.client("198.51.100.8"), false),
                row("ClientIP /24 below", "ClientIP(`198.51.100.0/24`)", get.client("198.51.99.255"), false),
                row("ClientIP /24 first", "ClientIP(`198.51.100.0/24`)", get.client("198.51.100.0"), true),
                row("ClientIP /24 last", "ClientIP(`198.51.100.0/24`)", get.client("198.51.100.255"), true),
                row("ClientIP /24 above", "ClientIP(`198.51.100.0/24`)", get.client("198.51.101.0"), false),
                row("ClientIP host bits ignored", "ClientIP(`198.51.100.77/24`)", get.client("198.51.100.1"), true),
                row("ClientIP /31", "ClientIP(`203.0.113.6/31`)", get.client("203.0.113.7"), true),
                row("ClientIP /31 outside", "ClientIP(`203.0.113.6/31`)", get.client("203.0.113.8"), false),
                row("ClientIP /8 loopback", "ClientIP(`127.0.0.0/8`)", get.client("127.255.255.255"), true),
                row("ClientIP /0 all IPv4", "ClientIP(`0.0.0.0/0`)", get.client("203.0.113.1"), true),
                row("ClientIP /0 IPv4 not IPv6", "ClientIP(`0.0.0.0/0`)", get.client("2001:db8::1"), false),
                row("ClientIP IPv6 equal", "ClientIP(`2001:db8::1`)", get.client("2001:db8:0:0::1"), true),
                row("ClientIP IPv6 other", "ClientIP(`2001:db8::1`)", get.client("2001:db8::2"), false),
                row("ClientIP IPv6 /64 last", "ClientIP(`2001:db8:1:2::/64`)",
                        get.client("2001:db8:1:2:ffff:ffff:ffff:ffff"), true),
                row("ClientIP IPv6 /64 above", "ClientIP(`2001:db8:1:2::/64`)", get.client("2001:db8:1:3::"), false),
                row("ClientIP IPv6 /65 boundary in", "ClientIP(`2001:db8::/65`)",
                        get.client("2001:db8::7fff:ffff:ffff:ffff"), true),
                row("ClientIP IPv6 /65 boundary out", "ClientIP(`2001:db8::/65`)", get.client("2001:db8::8000:0:0:0"),
                        false),
                row("ClientIP IPv6 /127", "ClientIP(`2001:db8::2/127`)", get.client("2001:db8::3"), true),
                row("ClientIP IPv6 /1 in", "ClientIP(`8000::/1`)", get.client("ffff::1"), true),
                row("ClientIP IPv6 /1 out", "ClientIP(`8000::/1`)", get.client("7fff::1"), false),
                row("ClientIP ::/0 all IPv6", "ClientIP(`::/0`)", get.client("::1"), true),
                row("ClientIP ::/0 not IPv4", "ClientIP(`::/0`)", get.client("127.0.0.1"), false),
                row("ClientIP IPv6 loopback", "ClientIP(`::1`)", get.client("0:0:0:0:0:0:0:1"), true),
                row("ClientIP IPv4 rule, mapped client", "ClientIP(`198.51.100.0/24`)",
                        get.client(mapped(198, 51, 100, 9)), true),
                row("ClientIP IPv4 rule, mapped client outside", "ClientIP(`198.51.100.0/24`)",
                        get.client(mapped(198, 51, 101, 9)), false),
                row("ClientIP mapped rule, IPv4 client", "ClientIP(`::ffff:198.51.100.9`)",
                        get.client("198.51.100.9"), true),
                row("ClientIP mapped /120 rule, IPv4 client", "ClientIP(`::ffff:198.51.100.0/120`)",
                        get.client("198.51.100.200"), true),
                row("ClientIP ::ffff:0:0/96 is all IPv4", "ClientIP(`::ffff:0:0/96`)", get.client("127.0.0.1"), true),
                row("ClientIP ::ffff:0:0/96 not IPv6", "ClientIP(`::ffff:0:0/96`)", get.client("2001:db8::1"), false),
                row("ClientIP no socket address", "ClientIP(`0.0.0.0/0`)", get.client((InetAddress) null), false),
                // operators
                row("and both", "Host(`example.com`) && Path(`/`)", get, true),
                row("and one", "Host(`example.com`) && Path(`/x`)", get, false),
                row("or one", "Host(`nope.test`) || Path(`/`)", get, true),
                row("or none", "Host(`nope.test`) || Path(`/x`)", get, false),
                row("not", "!Method(`POST`)", get, true),
                row("not on a group", "!(Method(`GET`) || Path(`/x`))", get, false),
                row("precedence: a || b && c with a true", "Path(`/`) || Method(`POST`) && Host(`nope.test`)", get,
                        true),
                row("grouping: (a || b) && c with a true", "(Path(`/`) || Method(`POST`)) && Host(`nope.test`)", get,
                        false),
                row("not binds tighter than and", "!Path(`/x`) && Path(`/`)", get, true));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("matching")
    void matches(String description, String rule, TestRequest request, boolean expected) {
        assertThat(HttpRule.compile(rule).matches(request)).isEqualTo(expected);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                bad("Hots(`a`)", "unknown matcher 'Hots' at column 1 in rule \"Hots(`a`)\""),
                bad("hOst(`a`)", "unknown matcher 'hOst' at column 1 in rule \"hOst(`a`)\""),
                bad("Host(`a`) && Hots(`b`)", "unknown matcher 'Hots' at column 14 in rule \"Host(`a`) && Hots(`b`)\""),
                bad("Tag(`a`)", "unknown matcher 'Tag' at column 1 in rule \"Tag(`a`)\""),
                bad("Host()", "Host takes 1 argument, got 0 at column 1 in rule \"Host()\""),
                bad("Host(`a`, `b`)", "Host takes 1 argument, got 2 at column 1 in rule \"Host(`a`, `b`)\""),
                bad("Header(`a`)", "Header takes 2 arguments, got 1 at column 1 in rule \"Header(`a`)\""),
                bad("query(`a`, `b`, `c`)", "Query takes 1 or 2 arguments, got 3 at column 1 in rule \"query(`a`, `b`, `c`)\""),
                bad("Host(``)", "Host: argument 1 is empty at column 1 in rule \"Host(``)\""),
                bad("Header(`X`, ``)", "Header: argument 2 is empty at column 1 in rule \"Header(`X`, ``)\""),
                bad("Query(`k`, \"\")", "Query: argument 2 is empty at column 1 in rule \"Query(`k`, \\\"\\\")\""),
                bad("Path(`a`)", "Path: path 'a' does not start with '/' at column 1 in rule \"Path(`a`)\""),
                bad("PathPrefix(`api`)", "PathPrefix: path 'api' does not start with '/' at column 1"
                        + " in rule \"PathPrefix(`api`)\""),
                bad("HostRegexp(`(a`)", "HostRegexp: invalid regular expression: missing closing ) at column 1"
                        + " in rule \"HostRegexp(`(a`)\""),
                bad("PathRegexp(`a(?=b)`)", "PathRegexp: invalid regular expression: invalid or unsupported Perl"
                        + " syntax at column 1 in rule \"PathRegexp(`a(?=b)`)\""),
                bad("PathRegexp(`((a{100}){100}){100}`)", "PathRegexp: regular expression is too large once"
                        + " repetitions are expanded (limit 100000) at column 1 in rule \"PathRegexp(`((a{100}){100}){100}`)\""),
                bad("Host(`exämple.com`)", "Host: non-ASCII host 'exämple.com'; write internationalised names in"
                        + " their xn-- form at column 1 in rule \"Host(`exämple.com`)\""),
                bad("Host(`a.*.com`)", "Host: '*' is allowed only alone or as the whole first label, as in"
                        + " *.example.com at column 1 in rule \"Host(`a.*.com`)\""),
                bad("Host(`.`)", "Host: host name is empty at column 1 in rule \"Host(`.`)\""),
                bad("ClientIP(`example.com`)", "ClientIP: 'example.com' is not an IP address or CIDR block at column 1"
                        + " in rule \"ClientIP(`example.com`)\""),
                bad("ClientIP(`198.51.100.1/33`)", "ClientIP: '198.51.100.1/33' is not an IP address or CIDR block"
                        + " at column 1 in rule \"ClientIP(`198.51.100.1/33`)\""),
                bad("ClientIP(`fe80::1%eth0`)", "ClientIP: 'fe80::1%eth0' is not an IP address or CIDR block"
                        + " at column 1 in rule \"ClientIP(`fe80::1%eth0`)\""),
                bad("ClientIP(`010.0.0.1`)", "ClientIP: '010.0.0.1' is not an IP address or CIDR block at column 1"
                        + " in rule \"ClientIP(`010.0.0.1`)\""),
                bad("ClientIP(`127.1`)", "ClientIP: '127.1' is not an IP address or CIDR block at column 1"
                        + " in rule \"ClientIP(`127.1`)\""),
                bad("ClientIP(` 127.0.0.1`)", "ClientIP: ' 127.0.0.1' is not an IP address or CIDR block at column 1"
                        + " in rule \"ClientIP(` 127.0.0.1`)\""),
                bad("ClientIP(`127.0.0.0/255.0.0.0`)", "ClientIP: '127.0.0.0/255.0.0.0' is not an IP address or"
                        + " CIDR block at column 1 in rule \"ClientIP(`127.0.0.0/255.0.0.0`)\""),
                bad("Host(`a`", "missing ')' for 'Host(' at column 1 in rule \"Host(`a`\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refuses(String rule, String message) {
        assertThatThrownBy(() -> HttpRule.compile(rule))
                .isInstanceOf(RuleSyntaxException.class)
                .hasMessage(message);
    }

    static Stream<Arguments> priorities() {
        return Stream.of(
                arguments("Host(`a`)", 9),
                arguments("Host(`example.com`) && PathPrefix(`/api`)", 41),
                arguments("Path(`/é`)", 11),
                arguments("Path(`/😀`)", 13),
                arguments("Path(`/\u20ac`)", 12));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("priorities")
    void default_priority_is_the_rule_length_in_utf8_bytes(String rule, int priority) {
        assertThat(HttpRule.priority(rule)).isEqualTo(priority);
        assertThat(HttpRule.compile(rule).defaultPriority()).isEqualTo(priority);
    }

    @Test
    void keeps_its_source_and_tree() {
        HttpRule rule = HttpRule.compile("Host(`a`) && Path(`/`)");

        assertThat(rule).hasToString("Host(`a`) && Path(`/`)");
        assertThat(rule.expr()).hasToString("(Host(`a`) && Path(`/`))");
    }

    @Test
    void an_ipv4_mapped_inet6address_is_really_16_bytes() throws Exception {
        // guards the mapped-client rows above: the JDK turns ::ffff:a.b.c.d literals into Inet4Address, so the
        // test builds the 16-byte form explicitly, as a dual-stack socket API may hand it over
        InetAddress address = mapped(198, 51, 100, 9);

        assertThat(address).isInstanceOf(Inet6Address.class);
        assertThat(address.getAddress()).hasSize(16);
        assertThat(ip("::ffff:198.51.100.9").getAddress()).hasSize(4);
    }

    private static InetAddress mapped(int a, int b, int c, int d) {
        byte[] bytes = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) a, (byte) b, (byte) c, (byte) d};
        try {
            return Inet6Address.getByAddress(null, bytes, -1);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Arguments row(String description, String rule, TestRequest request, boolean expected) {
        return arguments(description, rule, request, expected);
    }

    private static Arguments bad(String rule, String message) {
        return arguments(rule, message);
    }
}
