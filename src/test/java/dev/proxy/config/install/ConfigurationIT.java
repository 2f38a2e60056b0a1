package dev.proxy.config.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The three configuration sources of the packaged program — YAML file, {@code PROXY_*} environment variables and
 * flags — and how they merge (flags over environment over file). One proxy is started from all three at once; the
 * precedence table then runs {@code proxy healthcheck}, which reads the same sources the same way, against its ping
 * entry point: a check prints {@code OK} only if the winning source named the right port.
 */
class ConfigurationIT {

    static Path workingDirectory;
    static int adminPort;
    static int webPort;
    static ProxyProcess proxy;

    @BeforeAll
    static void startFromAllThreeSources(@TempDir Path dir) throws IOException {
        workingDirectory = dir;
        adminPort = ProxyProcess.freePort();
        webPort = ProxyProcess.freePort();
        Files.writeString(dir.resolve("proxy.yml"), """
                entryPoints:
                  admin:
                    address: "127.0.0.1:%d"
                  web:
                    address: "127.0.0.1:%d"
                """.formatted(adminPort, ProxyProcess.freePort()));
        proxy = ProxyProcess.command("--entryPoints.web.address=127.0.0.1:" + webPort)
                .workingDirectory(dir)
                .env("PROXY_PING_ENTRYPOINT", "admin")
                .env("PROXY_ENTRYPOINTS_WEB_ADDRESS", "127.0.0.1:" + ProxyProcess.freePort())
                .start();
        proxy.awaitPort(adminPort);
        proxy.awaitPort(webPort);
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    @Test
    void sourcesMerge() {
        // admin comes from the file, ping (on admin) from the environment, web's address from the flag
        assertThat(Loopback.get(adminPort, "/ping").statusCode()).isEqualTo(200);
        assertThat(Loopback.get(webPort, "/ping").statusCode()).isEqualTo(404);
        assertThat(proxy.awaitLine("started in"))
                .contains("configuration: " + workingDirectory.resolve("proxy.yml"))
                .contains("entry points: admin=127.0.0.1:" + adminPort + ", web=127.0.0.1:" + webPort)
                .endsWith("; network I/O: " + (io.netty.channel.uring.IoUring.isAvailable() ? "io_uring"
                        : io.netty.channel.epoll.Epoll.isAvailable() ? "epoll" : "nio"));
    }

    /** Where each source puts {@code entryPoints.admin.address}: the right port, or a closed one. */
    record Case(String name, Map<String, String> files, Map<String, String> env, List<String> flags) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> precedence() {
        String right = "127.0.0.1:${admin}";
        String wrong = "127.0.0.1:${closed}";
        return Stream.of(
                new Case("./proxy.yml alone", Map.of("proxy.yml", right), Map.of(), List.of()),
                new Case("./proxy.yaml alone", Map.of("proxy.yaml", right), Map.of(), List.of()),
                new Case("environment over file", Map.of("proxy.yml", wrong),
                        Map.of("PROXY_ENTRYPOINTS_ADMIN_ADDRESS", right), List.of()),
                new Case("flag over environment and file", Map.of("proxy.yml", wrong),
                        Map.of("PROXY_ENTRYPOINTS_ADMIN_ADDRESS", wrong), List.of("--entryPoints.admin.address=" + right)),
                new Case("--configFile instead of ./proxy.yml", Map.of("proxy.yml", wrong, "other.yml", right),
                        Map.of(), List.of("--configFile=other.yml")),
                new Case("PROXY_CONFIGFILE instead of ./proxy.yml", Map.of("proxy.yml", wrong, "other.yml", right),
                        Map.of("PROXY_CONFIGFILE", "other.yml"), List.of()),
                new Case("$XDG_CONFIG_HOME/proxy.yml", Map.of("xdg/proxy.yml", right),
                        Map.of("XDG_CONFIG_HOME", "${dir}/xdg"), List.of()),
                new Case("./proxy.yml before $XDG_CONFIG_HOME/proxy.yml", Map.of("proxy.yml", right, "xdg/proxy.yml", wrong),
                        Map.of("XDG_CONFIG_HOME", "${dir}/xdg"), List.of()),
                new Case("$HOME/.config/proxy.yml", Map.of(".config/proxy.yml", right), Map.of(), List.of())
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("precedence")
    void precedence(Case c, @TempDir Path dir) throws IOException {
        Map<String, String> vars = Map.of("${admin}", Integer.toString(adminPort),
                "${closed}", Integer.toString(ProxyProcess.freePort()), "${dir}", dir.toString());
        for (var file : c.files().entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, "entryPoints:\n  admin:\n    address: \"" + expand(file.getValue(), vars) + "\"\n");
        }
        List<String> args = new ArrayList<>(List.of("healthcheck", "--ping.entryPoint=admin"));
        c.flags().forEach(f -> args.add(expand(f, vars)));
        ProxyProcess.Launch launch = ProxyProcess.command(args.toArray(String[]::new)).workingDirectory(dir);
        c.env().forEach((k, v) -> launch.env(k, expand(v, vars)));

        ProxyProcess check = launch.run();

        assertThat(check.stdout()).as(check.transcript())
                .containsExactly("OK: http://127.0.0.1:" + adminPort + "/ping");
        assertThat(check.exitCode()).isZero();
    }

    private static String expand(String s, Map<String, String> vars) {
        String out = s;
        for (var v : vars.entrySet()) {
            out = out.replace(v.getKey(), v.getValue());
        }
        return out;
    }
}
