package dev.proxy.testing.consul;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.testcontainers.consul.ConsulContainer;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A Consul dev agent in a Testcontainers container, for machines with a Docker engine
 * ({@code -Dproxy.test.services=testcontainers}). Plain and ACL variants only; TLS needs the scripted
 * agent. Unlike the scripted agent, a restart gets new mapped ports.
 */
final class ContainerConsulRuntime implements ConsulRuntime {

    /** The same release the scripted agent builds (src/test/services/consul/build/go.mod). */
    private static final String IMAGE = "hashicorp/consul:1.19.2";

    private static final String READ_POLICY = "service_prefix \"\" { policy = \"read\" } node_prefix \"\" { policy = \"read\" }";

    private final ConsulVariant variant;
    private final String managementToken = UUID.randomUUID().toString();
    private final String readToken = UUID.randomUUID().toString();
    private ConsulContainer container;

    ContainerConsulRuntime(ConsulVariant variant) {
        if (variant.tls()) {
            throw new IllegalArgumentException("the TLS variant runs only with the scripted agent (agent.sh --tls)");
        }
        this.variant = variant;
    }

    @Override
    public ConsulEndpoints start() throws IOException {
        container = new ConsulContainer(IMAGE)
                .waitingFor(Wait.forHttp("/v1/status/leader").forPort(8500)
                        .forResponsePredicate(leader -> leader.length() > 2));
        if (variant.acl()) {
            container.withEnv("CONSUL_LOCAL_CONFIG", """
                    {"acl": {"enabled": true, "default_policy": "deny",
                             "tokens": {"initial_management": "%s", "agent": "%s"}}}"""
                    .formatted(managementToken, managementToken));
        }
        container.start();
        if (variant.acl()) {
            // The leader may still be initialising the ACL system right after election.
            await().atMost(Duration.ofSeconds(30)).until(() -> consul("acl", "policy", "create",
                    "-name=read-services-and-nodes", "-rules=" + READ_POLICY).getExitCode() == 0);
            ExecResult token = consul("acl", "token", "create", "-secret=" + readToken,
                    "-policy-name=read-services-and-nodes");
            if (token.getExitCode() != 0) {
                throw new IOException("cannot create the read-only token: " + token.getStderr());
            }
        }
        URI http = URI.create("http://" + container.getHost() + ":" + container.getMappedPort(8500));
        return variant.acl()
                ? new ConsulEndpoints(http, null, managementToken, readToken, null)
                : new ConsulEndpoints(http, null, null, null, null);
    }

    private ExecResult consul(String... arguments) throws IOException {
        String[] command = new String[arguments.length + 2];
        command[0] = "consul";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        command[command.length - 1] = "-token=" + managementToken;
        try {
            return container.execInContainer(command);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running consul in the container", e);
        }
    }

    @Override
    public void stop() {
        if (container != null) {
            container.stop();
            container = null;
        }
    }
}
