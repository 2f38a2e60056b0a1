package dev.proxy.testing.redis;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian package; {@code src/test/services/redis/ensure-redis.sh} installs it on a fresh
 * machine) started on 127.0.0.1 and a free port, without persistence. It can be stopped and started again on the
 * same port, to test what the proxy does while Redis is away.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

    private final Path binary;
    private final Path workDir;
    private final String password;
    private final int port;
    private Process process;

    /** @param password {@code requirepass}, or null for none */
    public RedisServer(String password) throws IOException {
        this.binary = ensureInstalled();
        this.password = password;
        Path target = Path.of(System.getProperty("proxy.basedir", System.getProperty("user.dir")), "target");
        Files.createDirectories(target);
        this.workDir = Files.createTempDirectory(target, "redis-");
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        start();
    }

    private static Path ensureInstalled() throws IOException {
        Path script = Path.of(System.getProperty("proxy.basedir", System.getProperty("user.dir")),
                "src/test/services/redis/ensure-redis.sh");
        Process p = new ProcessBuilder("bash", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IllegalStateException(script + " failed (exit " + p.exitValue() + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        String[] lines = out.split("\n");
        return Path.of(lines[lines.length - 1].strip());
    }

    public synchronized void start() throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--bind", "127.0.0.1", "--port",
                Integer.toString(port), "--save", "", "--appendonly", "no", "--dir", workDir.toString()));
        if (password != null) {
            cmd.addAll(List.of("--requirepass", password));
        }
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("redis.log").toFile())).start();
        Process started = process;
        await("redis-server on port " + port + " (log: " + workDir.resolve("redis.log") + ")")
                .atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(50))
                .failFast("redis-server exited", () -> !started.isAlive())
                .until(this::answersPing);
    }

    /** Stops the server (SIGTERM, then SIGKILL) and waits until the port no longer answers. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    public String endpoint() {
        return "127.0.0.1:" + port;
    }

    /** Sends one command (inline syntax) after AUTH and returns the first reply line. */
    public String command(String command) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            if (password != null) {
                out.write(("AUTH " + password + "\r\n").getBytes(StandardCharsets.UTF_8));
                readLine(in);
            }
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            return readLine(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean answersPing() {
        try {
            return command("PING").equals("+PONG");
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        stop();
    }
}
