package dev.proxy.ping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import org.junit.jupiter.api.Test;

/** When {@code /ping} is not served: ping disabled, or routed manually; and what the health check says then. */
class PingRoutingIT {

    @Test
    void withoutPingConfiguredPingIs404() {
        int web = ProxyProcess.freePort();
        try (ProxyProcess proxy = ProxyProcess.command("--entryPoints.web.address=127.0.0.1:" + web).start()) {
            proxy.awaitPort(web);
            assertThat(Loopback.get(web, "/ping").statusCode()).isEqualTo(404);
            assertThat(proxy.awaitLine("started in")).contains("entry points: web=127.0.0.1:" + web).doesNotContain("proxy=");
        }
    }

    @Test
    void withManualRoutingNoAutomaticPingRouteExists() {
        int ping = ProxyProcess.freePort();
        try (ProxyProcess proxy = ProxyProcess.command("--ping", "--ping.manualRouting=true",
                "--entryPoints.proxy.address=127.0.0.1:" + ping).start()) {
            proxy.awaitPort(ping);
            assertThat(Loopback.get(ping, "/ping").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void healthcheckWithPingDisabledAsksToEnableIt() {
        ProxyProcess check = ProxyProcess.command("healthcheck",
                "--entryPoints.web.address=127.0.0.1:" + ProxyProcess.freePort()).run();
        assertThat(check.exitCode()).as(check.transcript()).isEqualTo(1);
        assertThat(check.stdout()).singleElement().asString()
                .startsWith("Error calling healthcheck: please enable ping");
    }

    @Test
    void healthcheckWithoutThePingEntryPointNamesIt() {
        ProxyProcess check = ProxyProcess.command("healthcheck", "--ping", "--ping.entryPoint=admin",
                "--entryPoints.web.address=127.0.0.1:" + ProxyProcess.freePort()).run();
        assertThat(check.exitCode()).as(check.transcript()).isEqualTo(1);
        assertThat(check.stdout()).containsExactly("Error calling healthcheck: ping: missing admin entry point");
    }
}
