package dev.proxy.testing.aws;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The same launcher and patches inside the moto image, for machines with a Docker engine
 * ({@code -Dproxy.test.services=testcontainers}). Not exercised on the project's machines, which have no engine.
 */
final class ContainerMotoRuntime implements MotoRuntime {

    /** Same moto release as requirements.txt: moto_patches.py refuses any other. */
    private static final DockerImageName IMAGE = DockerImageName.parse("motoserver/moto:5.2.5");
    private static final int CONTAINER_PORT = 5000;

    private final Path servicesDir;
    private GenericContainer<?> container;
    private int hostPort;

    ContainerMotoRuntime(Path servicesDir) {
        this.servicesDir = servicesDir;
    }

    @Override
    public synchronized Map<String, String> start() throws IOException {
        if (hostPort == 0) {
            hostPort = freeLoopbackPort();
        }
        // Published on 127.0.0.1 only, and on a fixed port so stop() then start() keeps the endpoint.
        PortBinding binding = new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", hostPort), ExposedPort.tcp(CONTAINER_PORT));
        container = new GenericContainer<>(IMAGE)
                .withCopyFileToContainer(MountableFile.forHostPath(servicesDir), "/opt/proxy-moto")
                // the container's own 0.0.0.0 is reachable only through the 127.0.0.1 binding above
                .withEnv("PROXY_MOTO_IN_CONTAINER", "1")
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withEntrypoint("python3");
                    cmd.getHostConfig().withPortBindings(binding);
                })
                .withCommand("/opt/proxy-moto/launcher.py", "--workdir", "/tmp/moto", "--host", "0.0.0.0",
                        "--port", Integer.toString(CONTAINER_PORT))
                .withExposedPorts(CONTAINER_PORT)
                .waitingFor(Wait.forHttp("/_proxy/health"));
        container.start();
        String envFile = container.copyFileFromContainer(
                "/tmp/moto/moto.env", in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
        Map<String, String> env = MotoRuntime.parseEnv(envFile);
        // the launcher knows only its address inside the container
        env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:" + hostPort);
        env.remove("MOTO_PID");
        return env;
    }

    @Override
    public synchronized void stop() {
        if (container != null) {
            container.stop();
            container = null;
        }
    }

    @Override
    public Optional<Path> python() {
        return Optional.empty();
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
