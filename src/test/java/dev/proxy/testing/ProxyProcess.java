package dev.proxy.testing;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The real packaged {@code proxy} program, started as a process for end-to-end tests: {@code target/bin/proxy}
 * (system property {@code proxy.launcher}, set by failsafe), or {@code java -jar} on {@code proxy.jar}.
 *
 * <p>The process gets a clean environment — no inherited {@code PROXY_*} configuration, {@code JAVA_OPTS},
 * systemd or HTTP-proxy variables, and a fresh working and home directory, so no developer's {@code proxy.yml} is
 * found — plus what the test sets. Its stdout and stderr are collected line by line. Close it (try-with-resources or
 * an {@code @AfterAll}); a JVM shutdown hook kills whatever a failed test left behind.
 *
 * <pre>{@code
 * int port = ProxyProcess.freePort();
 * try (ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + port).start()) {
 *     proxy.awaitPort(port);
 *     ...
 *     proxy.signal("TERM");
 *     assertThat(proxy.awaitExit()).isZero();
 * }
 * }</pre>
 */
public final class ProxyProcess implements AutoCloseable {

    /** How long a start, a port or a log line is awaited: generous, as CI machines are shared. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Set<String> DROPPED_VARIABLES = Set.of("JAVA_OPTS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
            "XDG_CONFIG_HOME", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "HTTP_PROXY", "http_proxy",
            "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy");
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
    }

    private final Process process;
    private final List<String> command;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    private ProxyProcess(Process process, List<String> command) {
        this.process = process;
        this.command = command;
        this.stdoutReader = collect(process.getInputStream(), stdout, "stdout");
        this.stderrReader = collect(process.getErrorStream(), stderr, "stderr");
        LIVE.add(process);
    }

    /** A process to start with these arguments ({@code healthcheck}, {@code --ping}, …). */
    public static Launch command(String... args) {
        return new Launch(List.of(args));
    }

    /** A TCP port on 127.0.0.1 that was free a moment ago. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What to start; {@link #start()} starts it, {@link #run()} also waits for it to exit. */
    public static final class Launch {
        private final List<String> args;
        private final Map<String, String> env = new LinkedHashMap<>();
        private Path workingDirectory;
        private boolean sigintIgnored;
        private boolean jarDirectly;

        private Launch(List<String> args) {
            this.args = args;
        }

        /** Sets an environment variable of the process (e.g. {@code PROXY_PING=true}). */
        public Launch env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /** Runs the process in {@code dir} (default: a new empty directory, which is also its {@code HOME}). */
        public Launch workingDirectory(Path dir) {
            this.workingDirectory = dir;
            return this;
        }

        /**
         * Starts the process with SIGINT ignored, as a shell without job control starts a background command
         * ({@code proxy &} in a script): {@code sh} sets the disposition and execs, so the pid stays the proxy's.
         */
        public Launch sigintIgnored() {
            this.sigintIgnored = true;
            return this;
        }

        /** Runs {@code java -jar proxy.jar} without the launcher {@code bin/proxy} (and its flags). */
        public Launch jarDirectly() {
            this.jarDirectly = true;
            return this;
        }

        public ProxyProcess start() {
            List<String> command = new ArrayList<>();
            if (sigintIgnored) {
                command.addAll(List.of("sh", "-c", "trap '' INT; exec \"$@\"", "sh"));
            }
            command.addAll(jarDirectly ? jarCommand() : program());
            command.addAll(args);
            try {
                Path dir = workingDirectory != null ? workingDirectory : Files.createTempDirectory("proxy-it");
                ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
                Map<String, String> environment = pb.environment();
                environment.keySet().removeIf(k -> k.startsWith("PROXY_") || DROPPED_VARIABLES.contains(k));
                environment.put("HOME", dir.toString());
                environment.putAll(env);
                return new ProxyProcess(pb.start(), command);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + command, e);
            }
        }

        /** Starts the process and waits until it exits (for commands such as {@code healthcheck}, {@code version}). */
        public ProxyProcess run() {
            ProxyProcess p = start();
            p.awaitExit();
            return p;
        }

        private static List<String> program() {
            String launcher = System.getProperty("proxy.launcher", "target/bin/proxy");
            if (Files.isExecutable(Path.of(launcher))) {
                return List.of(launcher);
            }
            return jarCommand();
        }

        private static List<String> jarCommand() {
            String jar = System.getProperty("proxy.jar", "target/proxy.jar");
            if (Files.isRegularFile(Path.of(jar))) {
                return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar);
            }
            throw new IllegalStateException(jar + " does not exist: run `mvn package` first");
        }
    }

    public long pid() {
        return process.pid();
    }

    /** The stdout lines so far. */
    public List<String> stdout() {
        return List.copyOf(stdout);
    }

    /** The stderr lines so far. */
    public List<String> stderr() {
        return List.copyOf(stderr);
    }

    /** Waits for a stdout or stderr line containing {@code text} and returns it. */
    public String awaitLine(String text) {
        return awaitLine(line -> line.contains(text), "a line containing \"" + text + "\"");
    }

    /** Waits for a stdout or stderr line that matches and returns it. */
    public String awaitLine(Predicate<String> matching, String description) {
        List<String> found = new ArrayList<>();
        await(description + " from " + this).atMost(TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> {
            for (List<String> lines : List.of(stdout, stderr)) {
                lines.stream().filter(matching).findFirst().ifPresent(found::add);
            }
            if (found.isEmpty() && !process.isAlive()) {
                finishReading();
                throw new AssertionError("process exited with " + process.exitValue() + " before printing "
                        + description + "\n" + transcript());
            }
            return !found.isEmpty();
        });
        return found.get(0);
    }

    /** Waits until something accepts TCP connections on {@code 127.0.0.1:port}. */
    public void awaitPort(int port) {
        await("port " + port + " of " + this).atMost(TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (!process.isAlive()) {
                finishReading();
                throw new AssertionError("process exited with " + process.exitValue() + " before listening on "
                        + port + "\n" + transcript());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** Sends a signal by name ({@code TERM}, {@code INT}, {@code KILL}) to the process. */
    public void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -s " + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the process to exit and returns its exit code; all its output has been collected by then. */
    public int awaitExit() {
        try {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("process did not exit within " + TIMEOUT + "\n" + transcript());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        finishReading();
        LIVE.remove(process);
        return process.exitValue();
    }

    /** The exit code of a process that has exited (see {@link #awaitExit()}). */
    public int exitCode() {
        return process.exitValue();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Command and output so far, for assertion messages. */
    public String transcript() {
        return "$ " + String.join(" ", command) + "\n--- stdout\n" + String.join("\n", stdout)
                + "\n--- stderr\n" + String.join("\n", stderr);
    }

    /** Kills the process if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LIVE.remove(process);
    }

    @Override
    public String toString() {
        return "proxy process " + process.pid();
    }

    private void finishReading() {
        try {
            stdoutReader.join(TIMEOUT.toMillis());
            stderrReader.join(TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread collect(InputStream in, List<String> into, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    into.add(line);
                }
            } catch (IOException e) {
                // the process was killed: its output ends here
            }
        }, "proxy-process-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
