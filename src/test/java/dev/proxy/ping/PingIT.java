package dev.proxy.ping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code /ping} and {@code proxy healthcheck} against one running proxy: ping on its default entry point
 * ({@code proxy}, on a free port instead of :8080) next to a {@code web} entry point. The tests only read, so they
 * share the process.
 */
class PingIT {

    static int pingPort;
    static int webPort;
    static ProxyProcess proxy;

    @BeforeAll
    static void start() {
        pingPort = ProxyProcess.freePort();
        webPort = ProxyProcess.freePort();
        proxy = ProxyProcess.command(config().toArray(String[]::new)).start();
        proxy.awaitPort(pingPort);
        proxy.awaitPort(webPort);
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    static List<String> config() {
        return List.of("--ping", "--entryPoints.proxy.address=127.0.0.1:" + pingPort,
                "--entryPoints.web.address=127.0.0.1:" + webPort);
    }

    /** {@code proxy healthcheck} with the server's configuration and {@code extra} arguments. */
    static ProxyProcess.Launch healthcheck(String... extra) {
        List<String> args = new ArrayList<>(List.of("healthcheck"));
        args.addAll(config());
        args.addAll(List.of(extra));
        return ProxyProcess.command(args.toArray(String[]::new));
    }

    @Test
    void getPingAnswers200Ok() {
        HttpResponse<String> r = Loopback.get(pingPort, "/ping");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("OK");
        assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }

    @Test
    void headPingAnswers200WithoutBody() {
        HttpResponse<String> r = Loopback.head(pingPort, "/ping");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1} on the ping entry point → {2}")
    @CsvSource({
            "GET,  /ping?probe=1, 200",
            "GET,  /other,        404",
            "GET,  /,             404",
            "GET,  /ping/,        404",
            "GET,  /pingx,        404",
            "GET,  /PING,         404",
            "POST, /ping,         405",
    })
    void onlyPingIsServedOnThePingEntryPoint(String method, String path, int status) {
        assertThat(Loopback.send(method, pingPort, path).statusCode()).isEqualTo(status);
    }

    @Test
    void pingIsNotRoutedOnOtherEntryPoints() {
        assertThat(Loopback.get(webPort, "/ping").statusCode()).isEqualTo(404);
    }

    @Test
    void healthcheckOfAHealthyProxyExits0() {
        ProxyProcess check = healthcheck().run();
        assertThat(check.exitCode()).as(check.transcript()).isZero();
        assertThat(check.stdout()).containsExactly("OK: http://127.0.0.1:" + pingPort + "/ping");
    }

    @Test
    void healthcheckIgnoresHttpProxySettings() {
        String closed = "http://127.0.0.1:" + ProxyProcess.freePort();
        ProxyProcess check = healthcheck()
                .env("HTTP_PROXY", closed).env("http_proxy", closed)
                .env("HTTPS_PROXY", closed).env("https_proxy", closed)
                .env("JAVA_TOOL_OPTIONS", "-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=" + ProxyProcess.freePort())
                .run();
        assertThat(check.exitCode()).as(check.transcript()).isZero();
        assertThat(check.stdout()).containsExactly("OK: http://127.0.0.1:" + pingPort + "/ping");
    }

    @Test
    void healthcheckReportsABadStatus() {
        ProxyProcess check = healthcheck("--path=/other").run();
        assertThat(check.exitCode()).as(check.transcript()).isEqualTo(1);
        assertThat(check.stdout()).containsExactly("Bad healthcheck status: 404 Not Found");
    }

    @Test
    void healthcheckProbesAGivenUrl() {
        String url = "http://127.0.0.1:" + pingPort + "/ping";
        ProxyProcess check = ProxyProcess.command("healthcheck", "--url=" + url).run();
        assertThat(check.exitCode()).as(check.transcript()).isZero();
        assertThat(check.stdout()).containsExactly("OK: " + url);
    }

    @Test
    void healthcheckReportsARefusedConnection() {
        int closed = ProxyProcess.freePort();
        ProxyProcess check = ProxyProcess.command("healthcheck", "--ping",
                "--entryPoints.proxy.address=127.0.0.1:" + closed).run();
        assertThat(check.exitCode()).as(check.transcript()).isEqualTo(1);
        assertThat(check.stdout()).containsExactly(
                "Error calling healthcheck: java.net.ConnectException: Connection refused");
    }
}
