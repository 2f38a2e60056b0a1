package dev.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image recipe, checked without a Docker engine: its instructions (continuation lines joined, comments dropped,
 * as Docker reads them) must give a non-root image whose entry point and health check are the {@code proxy} launcher.
 */
public class DockerfileTest {

    static final Path DOCKERFILE = Path.of("src/main/docker/Dockerfile");

    /** An instruction: its keyword upper-cased and the rest of the (joined) line. */
    record Instruction(String keyword, String arguments) {
    }

    static List<Instruction> instructions() {
        List<String> lines;
        try {
            lines = Files.readAllLines(DOCKERFILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Instruction> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            String joined = current.toString().strip();
            current.setLength(0);
            if (joined.isEmpty()) {
                continue;
            }
            String[] parts = joined.split("\\s+", 2);
            out.add(new Instruction(parts[0].toUpperCase(), parts.length > 1 ? parts[1] : ""));
        }
        return out;
    }

    static List<String> all(String keyword) {
        return instructions().stream().filter(i -> i.keyword().equals(keyword)).map(Instruction::arguments).toList();
    }

    /** The exec-form command of the image's HEALTHCHECK (the ECS files must repeat it exactly). */
    public static List<String> healthcheckCommand() {
        List<String> healthchecks = all("HEALTHCHECK");
        assertThat(healthchecks).hasSize(1);
        Matcher m = Pattern.compile("CMD\\s+(\\[.*])$").matcher(healthchecks.get(0));
        assertThat(m.find()).as("exec-form CMD in %s", healthchecks.get(0)).isTrue();
        return execForm(m.group(1));
    }

    /** A JSON array of strings, as Docker's exec form (no escapes are used in this Dockerfile). */
    static List<String> execForm(String json) {
        assertThat(json).startsWith("[").endsWith("]");
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"").matcher(json);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theEntryPointIsTheLauncherInExecForm() {
        assertThat(all("ENTRYPOINT")).hasSize(1);
        assertThat(execForm(all("ENTRYPOINT").get(0))).containsExactly("proxy");
        assertThat(all("CMD")).as("no CMD: arguments of `docker run`/ECS command are configuration flags").isEmpty();
    }

    @Test
    void theHealthCheckIsTheCheapSubcommandWithTheEcsTimings() {
        assertThat(healthcheckCommand()).containsExactly("proxy", "healthcheck");
        assertThat(all("HEALTHCHECK").get(0)).contains("--interval=10s", "--timeout=5s", "--start-period=20s",
                "--retries=3");
    }

    @Test
    void theImageRunsAsAFixedNumericNonRootUser() {
        List<String> users = all("USER");
        assertThat(users).isNotEmpty();
        String last = users.get(users.size() - 1);
        assertThat(last).matches("\\d+(:\\d+)?");
        assertThat(last.split(":")[0]).isNotEqualTo("0");
        assertThat(all("RUN")).anyMatch(r -> r.contains("useradd --system --uid " + last.split(":")[0]));
    }

    @Test
    void itExposesTheWebAndPingEntryPoints() {
        assertThat(all("EXPOSE")).containsExactly("8000 8080");
    }

    @Test
    void aClassDataArchiveIsTrainedIntoTheImageNextToTheJar() {
        assertThat(all("FROM")).containsExactly("eclipse-temurin:17-jre-noble");
        assertThat(all("RUN")).anyMatch(r -> r.contains("-XX:ArchiveClassesAtExit=/opt/proxy/proxy.jsa")
                && r.contains("-Dproxy.cdsTraining=true"));
        assertThat(all("COPY")).containsExactly("target/proxy.jar /opt/proxy/proxy.jar",
                "src/main/dist/proxy /opt/proxy/bin/proxy");
    }

    @Test
    void theCopiedLauncherExistsAndReadsTheArchiveNextToTheJar() throws IOException {
        Path launcher = Path.of("src/main/dist/proxy");
        assumeTrue(Files.exists(launcher), "the launcher comes with branch foundation");
        assertThat(Files.readString(launcher)).contains("proxy.jsa").contains("../proxy.jar");
    }
}
