package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.server.forward.BackendTls;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.RealConsul;
import io.micronaut.json.tree.JsonNode;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Self-registration: the proxy in Consul with an HTTP check on its real /ping, terminating status, deregistration. */
@RealConsul
class RegistryCatalogSelfRegistrationIT {

    @Test
    void registersWithAPingCheckThatFailsWhileTerminatingAndDeregistersOnStop(ConsulAgent consul) {
        String name = "proxy-" + UUID.randomUUID().toString().substring(0, 8);
        try (DataPlane proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0", "--ping",
                "--entryPoints.proxy.address=127.0.0.1:0")) {
            RegistryCatalogConfig config = Catalog.options("--endpoint.address=" + consul.httpAddress().getAuthority(),
                    "--constraints=Tag(`none`)", "--selfRegistration.name=" + name,
                    "--selfRegistration.address=127.0.0.1", "--selfRegistration.port=" + proxy.port("web"),
                    "--selfRegistration.checkInterval=200ms", "--selfRegistration.connect=true");
            RegistryCatalogProvider provider = new RegistryCatalogProvider(config, new BackendTls(), n -> null,
                    "http://127.0.0.1:" + proxy.port("proxy") + "/ping");
            provider.start((p, c) -> { });
            try {
                await().atMost(Duration.ofSeconds(15)).until(() -> checkStatus(consul, name).equals("passing"));
                JsonNode service = consul.read("/v1/catalog/service/" + name).get(0);
                assertThat(service.get("ServicePort").getIntValue()).isEqualTo(proxy.port("web"));
                assertThat(service.get("ServiceConnect").get("Native").getBooleanValue()).isTrue();

                proxy.pingEndpoint.startTerminating();
                await().atMost(Duration.ofSeconds(15)).until(() -> checkStatus(consul, name).equals("critical"));
            } finally {
                provider.stop();
            }
            assertThat(consul.read("/v1/catalog/service/" + name).size()).isZero();
        }
    }

    private static String checkStatus(ConsulAgent consul, String service) {
        JsonNode checks = consul.read("/v1/health/checks/" + service);
        return checks.size() == 0 ? "absent" : checks.get(0).get("Status").getStringValue();
    }
}
