package dev.proxy.testing.consul;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Consul dev agent started by {@code src/test/services/consul/agent.sh} on 127.0.0.1. The script builds
 * the binary on first use (through {@code build.sh}), so a fresh machine needs nothing but Go.
 * Restarting in the same work directory keeps ports, tokens and certificates.
 */
final class ScriptedConsulRuntime implements ConsulRuntime {

    /** Covers a first-time Consul build on a busy 2-core machine; a cached start takes seconds. */
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(45);

    private final Path script;
    private final Path workdir;
    private final ConsulVariant variant;
    private Thread killOnExit;

    ScriptedConsulRuntime(Path scripts, Path workdir, ConsulVariant variant) {
        this.script = scripts.resolve("agent.sh");
        this.workdir = workdir.toAbsolutePath();
        this.variant = variant;
    }

    /** The scripts of the project this test runs in; failsafe runs tests in the project's base directory. */
    static Path defaultScripts() {
        return Path.of(System.getProperty("proxy.consul.scripts", "src/test/services/consul")).toAbsolutePath();
    }

    @Override
    public ConsulEndpoints start() throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), "start", workdir.toString()));
        command.addAll(variant.scriptFlags());
        run(command);
        Map<String, String> env = readEnv(workdir.resolve("consul.env"));
        long pid = Long.parseLong(env.get("CONSUL_PID"));
        // A JVM killed mid-run (Ctrl-C on mvn) must not leave agents behind; the store closes them otherwise.
        killOnExit = new Thread(() -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
        Runtime.getRuntime().addShutdownHook(killOnExit);
        return endpoints(env);
    }

    @Override
    public void stop() throws IOException {
        run(List.of("bash", script.toString(), "stop", workdir.toString()));
        if (killOnExit != null) {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
            killOnExit = null;
        }
    }

    private ConsulEndpoints endpoints(Map<String, String> env) {
        URI http = URI.create("http://" + env.get("CONSUL_PLAIN_HTTP_ADDR"));
        URI https = null;
        ConsulTlsFiles tls = null;
        if (variant.tls()) {
            https = URI.create("https://" + env.get("CONSUL_HTTP_ADDR"));
            Path clientKey = Path.of(env.get("CONSUL_CLIENT_KEY"));
            tls = new ConsulTlsFiles(Path.of(env.get("CONSUL_CACERT")), Path.of(env.get("CONSUL_CLIENT_CERT")),
                    clientKey, clientKey.resolveSibling("client-key.pk8.pem"));
        }
        return new ConsulEndpoints(http, https, env.get("CONSUL_HTTP_TOKEN"), env.get("CONSUL_READ_TOKEN"), tls);
    }

    private void run(List<String> command) throws IOException {
        Files.createDirectories(workdir);
        // Appended, so the start and stop reports of every restart stay readable after the run.
        Path output = workdir.resolve("agent-sh.out");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        try {
            if (!process.waitFor(SCRIPT_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " timed out; see " + output);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + process.exitValue() + "):\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
    }

    private static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                env.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return env;
    }
}
