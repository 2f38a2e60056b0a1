package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The packaged program's commands, help, and its answers to bad input (one stderr line, exit code 2). */
class CommandLineIT {

    /** Bad input from one source; {@code ${dir}} stands for the working directory. */
    record BadInput(String name, List<String> args, Map<String, String> env, String file, String stderr) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> badInput() {
        String prefix = "proxy: invalid configuration: ";
        return Stream.of(
                new BadInput("unknown key in a flag", List.of("--entryPoints.web.adress=127.0.0.1:1"), Map.of(), null,
                        prefix + "flag --entryPoints.web.adress=127.0.0.1:1: unknown key \"adress\" (did you mean \"address\"?)"),
                new BadInput("unknown key in a variable", List.of(), Map.of("PROXY_PIGN", "true"), null,
                        prefix + "environment variable PROXY_PIGN=true: unknown key \"pign\" (did you mean \"ping\"?)"),
                new BadInput("unknown key in the file", List.of(), Map.of(), "ping:\n  entryPiont: x\n",
                        prefix + "file ${dir}/proxy.yml line 2: ping.entryPiont=x: unknown key \"entryPiont\" (did you mean \"entryPoint\"?)"),
                new BadInput("wrong type in a flag", List.of("--ping.terminatingStatusCode=abc"), Map.of(), null,
                        prefix + "flag --ping.terminatingStatusCode=abc: not an integer"),
                new BadInput("wrong type in a variable", List.of(), Map.of("PROXY_PING_MANUALROUTING", "maybe"), null,
                        prefix + "environment variable PROXY_PING_MANUALROUTING=maybe: not a boolean (true or false)"),
                new BadInput("address without a port", List.of("--entryPoints.web.address=localhost"), Map.of(), null,
                        prefix + "flag --entryPoints.web.address=localhost: expected [host]:port, for example :8080 or 127.0.0.1:8080"),
                new BadInput("port out of range", List.of("--entryPoints.web.address=127.0.0.1:65536"), Map.of(), null,
                        prefix + "flag --entryPoints.web.address=127.0.0.1:65536: port must be between 0 and 65535"),
                new BadInput("missing configuration file", List.of("--configFile=missing.yml"), Map.of(), null,
                        prefix + "configFile missing.yml: no such file"),
                new BadInput("ping on an undefined entry point",
                        List.of("--ping", "--ping.entryPoint=admin", "--entryPoints.web.address=127.0.0.1:1"), Map.of(), null,
                        prefix + "ping.entryPoint=admin: no entry point of that name (defined: web)")
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputExits2WithOneLine(BadInput bad, @TempDir Path dir) throws IOException {
        if (bad.file() != null) {
            Files.writeString(dir.resolve("proxy.yml"), bad.file());
        }
        ProxyProcess.Launch launch = ProxyProcess.command(bad.args().toArray(String[]::new)).workingDirectory(dir);
        bad.env().forEach(launch::env);

        ProxyProcess proxy = launch.run();

        assertThat(proxy.stderr()).as(proxy.transcript()).containsExactly(bad.stderr().replace("${dir}", dir.toString()));
        assertThat(proxy.stdout()).isEmpty();
        assertThat(proxy.exitCode()).isEqualTo(2);
    }

    @Test
    void anEntryPointThatCannotListenExits1() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            ProxyProcess proxy = ProxyProcess.command("--entryPoints.web.address=" + address).run();

            assertThat(proxy.exitCode()).as(proxy.transcript()).isEqualTo(1);
            assertThat(proxy.stdout()).singleElement().asString()
                    .contains("ERROR").contains("entry point web: cannot listen on " + address + ": ");
        }
    }

    @Test
    void healthcheckNeverExits2() {
        // Docker reserves exit code 2 for HEALTHCHECK commands: bad usage or configuration is just "unhealthy".
        ProxyProcess missingValue = ProxyProcess.command("healthcheck", "--timeout").run();
        ProxyProcess badDuration = ProxyProcess.command("healthcheck", "--ping", "--timeout=soon").run();
        ProxyProcess badKey = ProxyProcess.command("healthcheck", "--entryPoints.web.adress=127.0.0.1:1").run();

        assertThat(missingValue.exitCode()).as(missingValue.transcript()).isEqualTo(1);
        assertThat(missingValue.stderr()).containsExactly("proxy: Missing required parameter for option '--timeout' (DURATION)");
        assertThat(badDuration.exitCode()).as(badDuration.transcript()).isEqualTo(1);
        assertThat(badDuration.stdout()).singleElement().asString()
                .startsWith("Error calling healthcheck: --timeout=soon: not a duration");
        assertThat(badKey.exitCode()).as(badKey.transcript()).isEqualTo(1);
        assertThat(badKey.stdout()).containsExactly("Error calling healthcheck: flag --entryPoints.web.adress=127.0.0.1:1: "
                + "unknown key \"adress\" (did you mean \"address\"?)");
    }

    @Test
    void helpListsTheConfigurationKeys() {
        ProxyProcess help = ProxyProcess.command("--help").run();

        assertThat(help.exitCode()).as(help.transcript()).isZero();
        assertThat(help.stdout()).contains(
                "  healthcheck  Check the running proxy through its ping endpoint (exit 0",
                "  --entryPoints.<name>.address=<string>",
                "  --entryPoints.<name>.transport.lifeCycle.requestAcceptGraceTimeout=<duration>",
                "  --ping.entryPoint=<string>",
                "  --ping.manualRouting=<boolean>",
                "  --ping.terminatingStatusCode=<integer>",
                "  --log.level=<trace|debug|info|warn|error|fatal|panic>",
                "  --providers.registryCatalog.endpoint.address=<string>",
                "  --providers.clusterTasks.secretAccessKey=<secret>");
        assertThat(String.join("\n", help.stdout())).contains("precedence: flags > environment variables > file");
    }

    @Test
    void versionPrintsTheVersion() {
        ProxyProcess version = ProxyProcess.command("version").run();
        ProxyProcess flag = ProxyProcess.command("--version").run();

        assertThat(version.exitCode()).as(version.transcript()).isZero();
        assertThat(version.stdout()).hasSize(3).first().asString().matches("Version: +\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(flag.stdout()).singleElement().asString().matches("proxy \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }
}
