package dev.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Dockerfile through BuildKit's own Dockerfile frontend ({@code src/test/services/dockerfile/lint}, built from
 * the Go module proxy): it parses, every build check passes, and the decoded instructions are what the ECS files
 * and the README rely on. {@link DockerfileTest} checks the same without Go; this is the real parser.
 */
class DockerfileLintIT {

    private record Run(int exit, List<String> lines) {
    }

    private static Run run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
        return new Run(p.exitValue(), output.lines().toList());
    }

    private static String lint() throws IOException, InterruptedException {
        Run build = run("bash", "src/test/services/dockerfile/build.sh");
        assertThat(build.exit()).as(String.join("\n", build.lines())).isZero();
        return build.lines().get(build.lines().size() - 1);
    }

    @Test
    void buildKitParsesTheDockerfileWithoutAWarning() throws Exception {
        Run lint = run(lint(), DockerfileTest.DOCKERFILE.toString());

        assertThat(lint.exit()).as(String.join("\n", lint.lines())).isZero();
        assertThat(lint.lines()).containsExactly(
                "FROM eclipse-temurin:17-jre-noble",
                "COPY [\"target/proxy.jar\"] /opt/proxy/proxy.jar",
                "COPY [\"src/main/dist/proxy\"] /opt/proxy/bin/proxy",
                "RUN",
                "ENV",
                "USER 10001:10001",
                "WORKDIR",
                "EXPOSE [\"8000\",\"8080\"]",
                "HEALTHCHECK [\"CMD\",\"proxy\",\"healthcheck\"] interval=10s timeout=5s start-period=20s retries=3",
                "ENTRYPOINT exec [\"proxy\"]");
    }

    @Test
    void aCheckWarningFailsAndAShellFormEntryPointIsTold(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("Dockerfile");
        Files.writeString(bad, "FROM eclipse-temurin:17-jre-noble AS Base\nENTRYPOINT proxy\n");

        Run lint = run(lint(), bad.toString());

        assertThat(lint.exit()).isEqualTo(1);
        // BuildKit reports JSONArgsRecommended while converting to LLB, after the checks this program runs; the
        // decoded form is what tells a shell-form ENTRYPOINT (which would not receive SIGTERM) apart.
        assertThat(lint.lines()).containsExactly("FROM eclipse-temurin:17-jre-noble", "ENTRYPOINT shell [\"proxy\"]",
                "warning: StageNameCasing: Stage name 'Base' should be lowercase (line 1)");
    }
}
