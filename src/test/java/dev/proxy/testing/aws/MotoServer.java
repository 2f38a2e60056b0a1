package dev.proxy.testing.aws;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The patched moto emulator of ECS, EC2 and SSM (see {@code src/test/services/moto/README.md}), and its
 * test control API. Get one through {@link MotoServerExtension}; every address it emulates is in
 * 127.0.0.0/8. Seed clusters, task definitions and tasks with the AWS API at {@link #endpoint()}.
 */
public final class MotoServer implements AutoCloseable {

    /** {@code healthStatus} values of an ECS task. */
    public enum TaskHealth { HEALTHY, UNHEALTHY, UNKNOWN }

    /**
     * How an operation fails until cleared (or for its next {@code times} calls).
     *
     * @param code  AWS error code; null: the service's throttling code (ThrottlingException, on EC2 RequestLimitExceeded)
     * @param status HTTP status of the error response
     * @param times how many calls fail; null: until {@link #clearFaults()}
     */
    public record Fault(@Nullable String code, int status, @Nullable Integer times) {
        public static Fault throttling() {
            return new Fault(null, 400, null);
        }

        public static Fault serverError() {
            return new Fault("InternalFailure", 500, null);
        }

        public Fault times(int count) {
            return new Fault(code, status, count);
        }
    }

    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(30);

    private final MotoRuntime runtime;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONTROL_TIMEOUT).build();
    private final JsonMapper json = JsonMapper.createDefault();
    private volatile Map<String, String> env = Map.of();

    MotoServer(MotoRuntime runtime) {
        this.runtime = runtime;
    }

    /** Starts the scripted emulator, or the container one under {@code -Dproxy.test.services=testcontainers}. */
    static MotoServer launch() {
        Path servicesDir = servicesDir();
        try {
            MotoRuntime runtime = "testcontainers".equals(System.getProperty("proxy.test.services"))
                    ? new ContainerMotoRuntime(servicesDir)
                    : new ScriptedMotoRuntime(servicesDir, projectDir().resolve("target"));
            MotoServer server = new MotoServer(runtime);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Maven runs tests from the project directory. */
    private static Path projectDir() {
        return Path.of(System.getProperty("proxy.basedir", System.getProperty("user.dir")));
    }

    /** {@code src/test/services/moto}: setup.sh, launcher.py, smoke_test.py. */
    static Path servicesDir() {
        Path dir = projectDir().resolve("src/test/services/moto");
        if (!Files.isRegularFile(dir.resolve("launcher.py"))) {
            throw new IllegalStateException("no launcher.py in " + dir + "; run tests from the project directory");
        }
        return dir;
    }

    /** The AWS endpoint, e.g. {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return URI.create(env.get("AWS_ENDPOINT_URL"));
    }

    /**
     * Variables for a process that should use the emulator: {@code AWS_ENDPOINT_URL}, {@code AWS_REGION},
     * {@code AWS_DEFAULT_REGION} and fake {@code AWS_ACCESS_KEY_ID} / {@code AWS_SECRET_ACCESS_KEY}.
     */
    public Map<String, String> env() {
        Map<String, String> copy = new LinkedHashMap<>(env);
        copy.remove("MOTO_PID");
        return Map.copyOf(copy);
    }

    /** The emulator's process id when it runs as a local process (for benchmarks reading its CPU time), else empty. */
    public Optional<String> pid() {
        return Optional.ofNullable(env.get("MOTO_PID"));
    }

    /** The virtualenv python with moto and boto3 (absent when the emulator runs in a container). */
    public Optional<Path> python() {
        return runtime.python();
    }

    /** Starts the emulator again after {@link #stop()}, on the same port, with empty state. */
    public synchronized void start() throws IOException {
        env = Map.copyOf(runtime.start());
    }

    /** Stops the emulator: calls to {@link #endpoint()} are refused until {@link #start()}. */
    public synchronized void stop() {
        runtime.stop();
    }

    @Override
    public void close() {
        stop();
    }

    /** Forgets every cluster, task, instance, call count and fault. */
    public void reset() {
        post("/_proxy/reset", Map.of());
    }

    public void setTaskHealth(String task, TaskHealth health) {
        post("/_proxy/task-health", Map.of("task", task, "healthStatus", health.name()));
    }

    /** Moves an awsvpc task (all its containers, its attachment and ENI) to a loopback address. */
    public void setTaskPrivateIp(String task, String ip) {
        post("/_proxy/task-ip", Map.of("task", task, "ip", ip));
    }

    /** Moves one container of an awsvpc task to a loopback address. */
    public void setTaskPrivateIp(String task, String container, String ip) {
        post("/_proxy/task-ip", Map.of("task", task, "container", container, "ip", ip));
    }

    /** Sets the host ports of a bridge/host task's network bindings, by container port. */
    public void setHostPorts(String task, Map<Integer, Integer> hostPortByContainerPort) {
        post("/_proxy/task-host-ports", Map.of("task", task, "hostPorts", hostPortByContainerPort));
    }

    public void setHostPorts(String task, String container, Map<Integer, Integer> hostPortByContainerPort) {
        post("/_proxy/task-host-ports", Map.of("task", task, "container", container, "hostPorts", hostPortByContainerPort));
    }

    public void setInstancePrivateIp(String ec2InstanceId, String ip) {
        post("/_proxy/instance-ip", Map.of("instanceId", ec2InstanceId, "ip", ip));
    }

    /** Registers (or updates) an ECS Anywhere managed instance that ssm:DescribeInstanceInformation reports. */
    public void registerManagedInstance(String managedInstanceId, String ip) {
        post("/_proxy/managed-instances", Map.of("instanceId", managedInstanceId, "ip", ip));
    }

    /** AWS calls served since the last reset, by {@code service:Operation} (e.g. {@code ecs:ListTasks}). */
    public Map<String, Long> callCounts() {
        return send(HttpRequest.newBuilder(control("/_proxy/calls")).GET(), Argument.mapOf(String.class, Long.class));
    }

    public void resetCallCounts() {
        post("/_proxy/calls/reset", Map.of());
    }

    /** Makes {@code operation} (e.g. {@code ecs:DescribeTasks}) fail as {@code fault} says. */
    public void failOperation(String operation, Fault fault) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("operation", operation);
        body.put("status", fault.status());
        if (fault.code() != null) {
            body.put("code", fault.code());
        }
        if (fault.times() != null) {
            body.put("times", fault.times());
        }
        post("/_proxy/faults", body);
    }

    /** Throttles {@code operation} until cleared. */
    public void failOperation(String operation) {
        failOperation(operation, Fault.throttling());
    }

    public void clearFault(String operation) {
        post("/_proxy/faults/clear", Map.of("operation", operation));
    }

    public void clearFaults() {
        post("/_proxy/faults/clear", Map.of());
    }

    @Override
    public String toString() {
        return "MotoServer[" + env.get("AWS_ENDPOINT_URL") + "]";
    }

    private URI control(String path) {
        return endpoint().resolve(path);
    }

    private void post(String path, Map<String, ?> body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(control(path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            send(request, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T send(HttpRequest.Builder request, Argument<T> type) {
        try {
            HttpResponse<byte[]> response = http.send(request.timeout(CONTROL_TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "moto control API " + response.request().uri().getPath() + " answered "
                                + response.statusCode() + ": " + new String(response.body()));
            }
            return json.readValue(response.body(), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted calling the moto control API", e);
        }
    }
}
