package dev.proxy.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.provider.registrycatalog.RegistryCatalogProvider;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import dev.proxy.testing.Http;
import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.RealConsul;
import dev.proxy.testing.consul.ServiceRegistration;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The API over services registered in a real Consul agent and discovered by the registryCatalog provider: routers
 * and services with provider {@code registrycatalog}, the servers' health, the provider's activity, and its explain
 * output for an exposed and a disabled service.
 */
@RealConsul
class ApiRegistryCatalogIT {

    @Test
    void catalogServicesRoutersAndTheProvidersExplanation(ConsulAgent consul) {
        String tag = "api-" + UUID.randomUUID().toString().substring(0, 8);
        String web = "web-" + tag;
        String hidden = "hidden-" + tag;
        try (FixedBackend backend = new FixedBackend("hello");
             DataPlane proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
                     "--entryPoints.proxy.address=127.0.0.1:0", "--api.insecure",
                     "--providers.providersThrottleDuration=0s",
                     "--providers.registryCatalog.endpoint.address=" + consul.httpAddress().getAuthority(),
                     "--providers.registryCatalog.refreshInterval=100ms",
                     "--providers.registryCatalog.constraints=Tag(`" + tag + "`)")) {
            int port = URI.create(backend.url()).getPort();
            ServiceRegistration exposed = ServiceRegistration.of(web, port).withTags(tag);
            ServiceRegistration disabled = ServiceRegistration.of(hidden, port).withTags(tag, "proxy.enable=false");
            consul.register(exposed);
            consul.register(disabled);
            try {
                proxy.run(new RegistryCatalogProvider(proxy.install, proxy.backendTls));
                String api = proxy.url("proxy", "/api");
                await().atMost(Duration.ofSeconds(15)).until(() ->
                        Http.get(api + "/http/routers/" + web + "@registrycatalog").statusCode() == 200);

                assertThat(Http.object(Http.get(api + "/http/routers/" + web + "@registrycatalog")))
                        .containsEntry("provider", "registrycatalog").containsEntry("status", "enabled")
                        .containsEntry("rule", "Host(`" + web + "`)")
                        .containsEntry("service", web + "@registrycatalog").containsEntry("using", List.of("web"));
                assertThat(Http.object(Http.get(api + "/http/services/" + web + "@registrycatalog")))
                        .containsEntry("serverStatus", Map.of(backend.url(), "UP"))
                        .containsEntry("usedBy", List.of(web + "@registrycatalog"));
                assertThat(Http.get(proxy.url("web", "/"), "Host", web).body()).isEqualTo("hello");

                Map<String, Object> provider = Http.object(Http.get(api + "/providers/registrycatalog"));
                assertThat(provider).containsEntry("status", "enabled").containsEntry("explainable", true)
                        .containsEntry("routers", 1).containsEntry("failures", 0);
                assertThat((Integer) provider.get("refreshes")).isPositive();
                assertThat(provider.get("lastSuccessfulRefresh")).isNotNull();

                HttpResponse<String> explain = Http.get(api + "/providers/registrycatalog/explain?search=" + tag);
                // (The search also finds items whose reason names the tag, such as Consul's own service.)
                assertThat(Http.array(explain)).filteredOn(i -> ((String) i.get("item")).contains(tag)).extracting(i -> i.get("item"), i -> i.get("exposed"), i -> i.get("reason"),
                        i -> i.get("routers")).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(web + " (" + web + "-" + port + " on node " + node(consul) + ")",
                                true, "exposed", List.of(web)),
                        org.assertj.core.groups.Tuple.tuple(hidden + " (" + hidden + "-" + port + " on node "
                                + node(consul) + ")", false, "disabled by its tag proxy.enable=false", List.of()));
                assertThat(Http.array(Http.get(api + "/providers/registrycatalog/explain?status=skipped&search=" + tag)))
                        .extracting(i -> i.get("exposed")).isNotEmpty().containsOnly(false);
            } finally {
                consul.deregister(exposed.id());
                consul.deregister(disabled.id());
            }
        }
    }

    /** The agent's node name, as the catalog reports instances on it. */
    private static String node(ConsulAgent consul) {
        return consul.read("/v1/agent/self").get("Config").get("NodeName").getStringValue();
    }
}
