package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.ProxyProcess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code proxy healthcheck} against a running proxy whose ping entry point has {@code http.tls}: the ping router is
 * TLS-only there, so the probe must speak https (and accept the generated default certificate on loopback).
 */
class HealthcheckTlsIT {

    static int pingPort;
    static ProxyProcess proxy;

    @BeforeAll
    static void start() {
        pingPort = ProxyProcess.freePort();
        proxy = ProxyProcess.command(config(true).toArray(String[]::new)).start();
        proxy.awaitPort(pingPort);
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    private static List<String> config(boolean tls) {
        List<String> args = new ArrayList<>(List.of("--ping", "--entryPoints.proxy.address=127.0.0.1:" + pingPort));
        if (tls) {
            args.add("--entryPoints.proxy.http.tls=true");
        }
        return args;
    }

    private static ProxyProcess healthcheck(boolean tls) {
        List<String> args = new ArrayList<>(List.of("healthcheck"));
        args.addAll(config(tls));
        return ProxyProcess.command(args.toArray(String[]::new)).run();
    }

    @Test
    void probesTheTlsPingEntryPointOverHttps() {
        ProxyProcess check = healthcheck(true);
        assertThat(check.exitCode()).as(check.transcript()).isZero();
        assertThat(check.stdout()).containsExactly("OK: https://127.0.0.1:" + pingPort + "/ping");
    }

    @Test
    void aPlainProbeFindsNoPlainPingRouter() {
        ProxyProcess check = healthcheck(false);
        assertThat(check.exitCode()).as(check.transcript()).isEqualTo(1);
        assertThat(check.stdout()).containsExactly("Bad healthcheck status: 404 Not Found");
    }
}
