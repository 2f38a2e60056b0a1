package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proxy.testing.DataPlane;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ipAllowList over real sockets: IPv4 and IPv6 peers, ipStrategy depth and excludedIPs, fail-closed ranges. */
class IpAllowListTest {

    @RegisterExtension
    final OneRoute route = OneRoute.standard();

    private void configure(String ipAllowList) {
        route.through("{ipAllowList: " + ipAllowList + "}");
    }

    private int statusAt(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return route.client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private int status(String... headers) throws Exception {
        return route.get("/", headers).statusCode();
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
        assertThat(route.backend.requests).isEmpty();
    }

    @Test
    void forwardedForIsIgnoredWithoutIpStrategy() throws Exception {
        configure("{sourceRange: [\"127.0.0.9\"]}");
        assertThat(status("X-Forwarded-For", "127.0.0.9")).isEqualTo(403);
    }

    @Test
    void ipv6Peer() throws Exception {
        assumeTrue(ipv6Loopback(), "no IPv6 loopback on this machine");
        route.proxy.close();
        route.proxy = new DataPlane("--entryPoints.web.address=[::1]:0");
        String url = "http://[::1]:" + route.proxy.port("web") + "/";
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
        assertThat(route.proxy.routing.errors().get("r@file"))
                .isEqualTo("middleware m@file: \"not-a-range\" is not an IP address or CIDR range");
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
