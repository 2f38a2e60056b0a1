package dev.proxy.testing.aws;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code src/test/services/moto/setup.sh} (a no-op once the virtualenv exists) and then
 * {@code launcher.py} as a child process on 127.0.0.1.
 */
final class ScriptedMotoRuntime implements MotoRuntime {

    /** The first setup.sh on a machine installs moto and boto3 from PyPI: about a minute here. */
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final Path servicesDir;
    private final Path workDir;
    private Path python;
    private Process process;
    private int port;

    ScriptedMotoRuntime(Path servicesDir, Path buildDir) throws IOException {
        this.servicesDir = servicesDir;
        // Logs stay in target/ for a look after a failed run; mvn clean removes them.
        Files.createDirectories(buildDir);
        this.workDir = Files.createTempDirectory(buildDir, "moto-");
    }

    @Override
    public synchronized Map<String, String> start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("moto is already running");
        }
        Path python = python().orElseThrow();
        Path envFile = workDir.resolve("moto.env");
        Files.deleteIfExists(envFile); // left behind if a previous launcher was killed
        process = new ProcessBuilder(
                        List.of(
                                python.toString(),
                                servicesDir.resolve("launcher.py").toString(),
                                "--workdir", workDir.toString(),
                                "--port", Integer.toString(port),
                                // stdin stays open while this JVM lives: a crashed test run leaves no emulator behind
                                "--exit-on-stdin-eof"))
                .directory(servicesDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("launcher.log").toFile()))
                .start();
        Process started = process;
        await("moto.env from launcher.py (log: " + workDir.resolve("launcher.log") + ")")
                .atMost(READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(50))
                .failFast("launcher.py exited", () -> !started.isAlive())
                .until(() -> Files.exists(envFile));
        Map<String, String> env = MotoRuntime.parseEnv(Files.readString(envFile));
        port = Integer.parseInt(env.get("AWS_ENDPOINT_URL").replaceAll(".*:(\\d+)/?$", "$1"));
        return env;
    }

    @Override
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        try (OutputStream stdin = process.getOutputStream()) {
            // closing stdin is the launcher's signal to stop
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        process = null;
    }

    @Override
    public synchronized Optional<Path> python() {
        if (python == null) {
            python = runSetup();
        }
        return Optional.of(python);
    }

    private Path runSetup() {
        Path log = workDir.resolve("setup.log");
        Path out = workDir.resolve("setup.out");
        try {
            Process setup = new ProcessBuilder("bash", servicesDir.resolve("setup.sh").toString())
                    .redirectError(log.toFile())
                    .redirectOutput(out.toFile())
                    .start();
            if (!setup.waitFor(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                setup.destroyForcibly();
                throw new IllegalStateException("setup.sh still running after " + SETUP_TIMEOUT + ", see " + log);
            }
            if (setup.exitValue() != 0) {
                throw new IllegalStateException("setup.sh failed:\n" + Files.readString(log));
            }
            List<String> lines = Files.readAllLines(out);
            return Path.of(lines.get(lines.size() - 1).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running setup.sh", e);
        }
    }
}
