package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code bin/proxy} launcher in an installation laid out as {@code <dir>/bin/proxy} and {@code <dir>/proxy.jar}. */
class LauncherIT {

    static final Path LAUNCHER = Path.of(System.getProperty("proxy.launcher", "target/bin/proxy"));
    static final Path JAR = Path.of(System.getProperty("proxy.jar", "target/proxy.jar"));

    @Test
    void runsTheJarNextToItThroughASymlinkAndIgnoresAStaleArchive(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("opt/bin"));
        Files.copy(LAUNCHER, bin.resolve("proxy"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(JAR, dir.resolve("opt/proxy.jar"));
        // The build's archive names the jar where it was built: the JVM refuses it here (and would print a warning).
        Path archive = JAR.resolveSibling("proxy.jsa");
        assertThat(archive).as("class-data archive of the build").exists();
        Files.copy(archive, dir.resolve("opt/proxy.jsa"));
        Path link = Files.createSymbolicLink(dir.resolve("proxy"), bin.resolve("proxy"));

        Result r = run(link, "version");

        assertThat(r.exitCode()).as(r.output().toString()).isZero();
        assertThat(r.output()).hasSize(3).first().asString().startsWith("Version:");
    }

    @Test
    void saysWhereTheJarIsMissing(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.copy(LAUNCHER, bin.resolve("proxy"), StandardCopyOption.COPY_ATTRIBUTES);

        Result r = run(bin.resolve("proxy"), "version");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).containsExactly("proxy: cannot find proxy.jar next to " + bin.toRealPath()
                + " (build it with: mvn -q -DskipTests package)");
    }

    record Result(int exitCode, List<String> output) {
    }

    private static Result run(Path program, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(program.toString()).redirectErrorStream(true);
        pb.command().addAll(List.of(args));
        pb.environment().keySet().removeIf(k -> k.startsWith("PROXY_") || k.equals("JAVA_OPTS"));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), output.lines().toList());
    }
}
