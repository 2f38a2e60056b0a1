package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proxy.testing.DataPlane;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ipAllowList over real sockets: IPv4 and IPv6 peers, ipStrategy depth and excludedIPs, fail-closed ranges. */
class IpAllowListTest {

    private final HttpClient client = HttpClient.newHttpClient();
    private TestBackend backend;
    private DataPlane proxy;

    @BeforeEach
    void start() {
        backend = TestBackend.ok();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
    }

    @AfterEach
    void stop() {
        proxy.close();
        backend.close();
    }

    private void configure(String ipAllowList) {
        proxy.apply("""
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [allow]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares: {allow: {ipAllowList: %s}}
                """.formatted(backend.url(), ipAllowList));
    }

    private int statusAt(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private int status(String... headers) throws Exception {
        return statusAt(proxy.url("web", "/"), headers);
    }

    @ParameterizedTest(name = "peer 127.0.0.1, sourceRange {0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "[\"127.0.0.1\"]                   | 200",
            "[\"127.0.0.0/8\"]                 | 200",
            "[\"192.0.2.0/24\", \"127.0.0.1/32\"] | 200",
            "[\"127.0.0.2/32\"]                | 403",
            "[\"::1\"]                         | 403"})
    void ipv4Peer(String sourceRange, int expected) throws Exception {
        configure("{sourceRange: " + sourceRange + "}");
        assertThat(status()).isEqualTo(expected);
    }

    @Test
    void rejectStatusCodeIsConfigurable() throws Exception {
        configure("{sourceRange: [\"127.0.0.2\"], rejectStatusCode: 404}");
        assertThat(status()).isEqualTo(404);
        assertThat(backend.requests).isEmpty();
    }

    @Test
    void forwardedForIsIgnoredWithoutIpStrategy() throws Exception {
        configure("{sourceRange: [\"127.0.0.9\"]}");
        assertThat(status("X-Forwarded-For", "127.0.0.9")).isEqualTo(403);
    }

    @Test
    void ipv6Peer() throws Exception {
        assumeTrue(ipv6Loopback(), "no IPv6 loopback on this machine");
        proxy.close();
        proxy = new DataPlane("--entryPoints.web.address=[::1]:0");
        String url = "http://[::1]:" + proxy.port("web") + "/";
        configure("{sourceRange: [\"::1/128\"]}");
        assertThat(statusAt(url)).isEqualTo(200);
        configure("{sourceRange: [\"127.0.0.0/8\"]}");
        assertThat(statusAt(url)).isEqualTo(403);
        configure("{sourceRange: [\"::/127\"]}");
        assertThat(statusAt(url)).isEqualTo(200);
    }

    @ParameterizedTest(name = "depth {0}, X-Forwarded-For \"{1}\": {2}")
    @CsvSource(delimiter = '|', value = {
            "1 | 127.0.0.5, 127.0.0.9            | 200",
            "1 | 127.0.0.9, 127.0.0.5            | 403",
            "2 | 127.0.0.9, 127.0.0.5            | 200",
            "3 | 127.0.0.9, 127.0.0.5            | 403", // deeper than the header: no address, refused
            "1 | 127.0.0.9, not-an-ip            | 403",
            "1 | 2001:db8::5                     | 200",
            "2 | 2001:db8::7, 127.0.0.1          | 200",
            "1 | 2001:db9::5                     | 403"})
    void ipStrategyDepth(int depth, String forwardedFor, int expected) throws Exception {
        configure("{sourceRange: [\"127.0.0.9\", \"2001:db8::/32\"], ipStrategy: {depth: " + depth + "}}");
        assertThat(status("X-Forwarded-For", forwardedFor)).isEqualTo(expected);
    }

    @Test
    void ipStrategyExcludedIPsSkipsTrustedProxies() throws Exception {
        configure("{sourceRange: [\"127.0.0.9\"], ipStrategy: {excludedIPs: [\"127.0.0.5\", \"127.0.0.6/32\"]}}");
        assertThat(status("X-Forwarded-For", "127.0.0.9, 127.0.0.5, 127.0.0.6")).isEqualTo(200);
        assertThat(status("X-Forwarded-For", "127.0.0.9, 127.0.0.7, 127.0.0.6")).isEqualTo(403);
    }

    @Test
    void invalidRangeDisablesTheRouter() throws Exception {
        configure("{sourceRange: [\"127.0.0.1\", \"not-a-range\"]}");
        assertThat(proxy.routing.errors().get("r@file"))
                .isEqualTo("middleware allow@file: \"not-a-range\" is not an IP address or CIDR range");
        assertThat(status()).isEqualTo(404);
    }

    private static boolean ipv6Loopback() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
