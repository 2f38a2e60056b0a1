package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.ConsulTlsFiles;
import dev.proxy.testing.consul.RealConsul;
import dev.proxy.testing.consul.ServiceRegistration;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The provider against a real Consul agent, with real loopback backends behind the in-JVM data plane. */
@RealConsul
class RegistryCatalogIT {

    private final CatalogTestBed bed = new CatalogTestBed();

    @AfterEach
    void close() {
        bed.close();
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(booleans = {false, true})
    void registeredServiceIsRoutableAndDeregisteredIs404(boolean watch, ConsulAgent consul) {
        String name = "web-" + bed.tag;
        int port = bed.backend("hello from " + name);
        bed.run(bed.options(consul, "--watch=" + watch));

        bed.register(consul, ServiceRegistration.of(name, port));
        bed.awaitBody(name, "hello from " + name);

        consul.deregister(name + "-" + port);
        bed.awaitStatus(name, 404);
    }

    @Test
    void criticalInstanceIsRemovedAndWarningFollowsStrictChecks(ConsulAgent consul) {
        String name = "health-" + bed.tag;
        String strict = "strict-" + bed.tag;
        int port = bed.backend(name);
        bed.run(bed.options(consul));
        bed.register(consul, ServiceRegistration.of(name, port).withHealth("passing"));
        bed.register(consul, ServiceRegistration.of(strict, port).withHealth("passing")
                .withTags("strict-only"));
        bed.awaitBody(name, name);

        consul.updateHealth(name + "-" + port, "critical");
        bed.awaitStatus(name, 404);
        consul.updateHealth(name + "-" + port, "warning");
        bed.awaitBody(name, name);
        // strictChecks=passing: a second provider on the same agent, its own name.
        CatalogSource passingOnly = bed.source(bed.options(consul, "--strictChecks=passing",
                "--constraints=Tag(`" + bed.tag + "`) && Tag(`strict-only`)"));
        consul.updateHealth(strict + "-" + port, "warning");
        await().atMost(CatalogTestBed.SYNC).until(() -> passingOnly.refresh().http().routers().isEmpty());
        assertThat(passingOnly.explain()).filteredOn(e -> e.service().equals(strict)).singleElement().satisfies(e ->
                assertThat(e.reason()).isEqualTo("its check status warning is not in strictChecks [passing]"));
    }

    @Test
    void constraintsAndExposedByDefaultFalseWithEnable(ConsulAgent consul) {
        int port = bed.backend("ok");
        String enabled = "enabled-" + bed.tag;
        String plain = "plain-" + bed.tag;
        String other = "other-" + bed.tag;
        bed.run(bed.options(consul, "--exposedByDefault=false",
                "--constraints=Tag(`" + bed.tag + "`) && !Tag(`internal`)"));
        bed.register(consul, ServiceRegistration.of(plain, port));
        bed.register(consul, ServiceRegistration.of(other, port).withTags("proxy.enable=true", "internal"));
        bed.register(consul, ServiceRegistration.of(enabled, port).withTags("proxy.enable=true"));

        bed.awaitBody(enabled, "ok");
        assertThat(bed.get(plain).statusCode()).isEqualTo(404);
        assertThat(bed.get(other).statusCode()).isEqualTo(404);
    }

    @Test
    void basicAuthFromTags(ConsulAgent consul) {
        String name = "auth-" + bed.tag;
        int port = bed.backend("secret stuff");
        bed.run(bed.options(consul));
        bed.register(consul, ServiceRegistration.of(name, port).withTags(
                "proxy.http.middlewares.auth.basicauth.users=u:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=",
                "proxy.http.routers.web.middlewares=auth", "proxy.http.routers.web.rule=Host(`" + name + "`)"));

        bed.awaitStatus(name, 401);
        HttpResponse<String> allowed = bed.get(name, "Authorization",
                "Basic " + java.util.Base64.getEncoder().encodeToString("u:secret".getBytes()));
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).isEqualTo("secret stuff");
    }

    @Test
    void twoInstancesAreBalanced(ConsulAgent consul) {
        String name = "pair-" + bed.tag;
        int a = bed.backend("a");
        int b = bed.backend("b");
        bed.run(bed.options(consul));
        bed.register(consul, ServiceRegistration.of(name, a));
        bed.register(consul, ServiceRegistration.of(name, b));
        await().atMost(CatalogTestBed.SYNC).until(() -> bodies(name, 2).size() == 2);

        assertThat(bodies(name, 10)).isEqualTo(Map.of("a", 5, "b", 5));
    }

    @Test
    void ninetyTenWeightsAcrossTwoServices(ConsulAgent consul) {
        String host = "app-" + bed.tag;
        int v1 = bed.backend("v1");
        int v2 = bed.backend("v2");
        bed.run(bed.options(consul));
        String rule = "proxy.http.routers.app.rule=Host(`" + host + "`)";
        bed.register(consul, ServiceRegistration.of("app-v1-" + bed.tag, v1)
                .withTags(rule, "proxy.http.services.app-v1.loadbalancer.weight=90"));
        bed.register(consul, ServiceRegistration.of("app-v2-" + bed.tag, v2)
                .withTags(rule, "proxy.http.services.app-v2.loadbalancer.weight=10"));
        await().atMost(CatalogTestBed.SYNC).until(() -> bodies(host, 10).size() == 2);

        assertThat(bodies(host, 100)).isEqualTo(Map.of("v1", 90, "v2", 10));
    }

    @Test
    void aclTokenIsRequiredAndARefusedTokenSaysWhichPermissions(@RealConsul(acl = true) ConsulAgent consul) {
        String name = "acl-" + bed.tag;
        int port = bed.backend(name);
        bed.register(consul, ServiceRegistration.of(name, port));

        // No token: default deny hides the entries (200, empty), so nothing is routed.
        DynamicConfig anonymous = bed.source(bed.options(consul)).refresh();
        assertThat(anonymous.http().routers()).isEmpty();
        // A token Consul does not know: 403, and the error names the permissions.
        assertThatThrownBy(() -> bed.source(bed.options(consul, "--endpoint.token=not-a-known-token")).refresh())
                .isInstanceOf(ConsulException.class)
                .hasMessageContaining("answered 403")
                .hasMessageContaining("needs service:read and node:read")
                .hasMessageNotContaining("not-a-known-token");
        // The read-only token: routed.
        bed.run(bed.options(consul, "--endpoint.token=" + consul.readToken()));
        bed.awaitBody(name, name);
    }

    @Test
    void httpsAgentWithClientCertificate(@RealConsul(tls = true) ConsulAgent consul) {
        String name = "tls-" + bed.tag;
        int port = bed.backend(name);
        bed.register(consul, ServiceRegistration.of(name, port));
        ConsulTlsFiles files = consul.tls();
        String https = "--endpoint.address=" + consul.httpsAddress().getAuthority();
        String ca = "--endpoint.tls.ca=" + files.caCertificate();

        // Consul's own SEC1 key file, as users have it.
        bed.run(bed.options(consul, https, ca, "--endpoint.tls.cert=" + files.clientCertificate(),
                "--endpoint.tls.key=" + files.clientKey()));
        bed.awaitBody(name, name);
        assertThatThrownBy(() -> bed.source(bed.options(consul, https, ca)).refresh())
                .isInstanceOf(ConsulException.class);
    }

    @Test
    void keepsRoutesWhileConsulIsDownAndPicksUpChangesAfterItsRestart(@RealConsul(dedicated = true) ConsulAgent consul) {
        String before = "before-" + bed.tag;
        String after = "after-" + bed.tag;
        int port = bed.backend("up");
        CatalogSource source = bed.run(bed.options(consul, "--watch=true"));
        bed.register(consul, ServiceRegistration.of(before, port));
        bed.awaitBody(before, "up");

        consul.stop();
        await().atMost(CatalogTestBed.SYNC).until(() -> source.failedRefreshes() > 0);
        assertThat(bed.get(before).body()).isEqualTo("up");

        consul.start();
        bed.register(consul, ServiceRegistration.of(after, port));
        bed.awaitBody(after, "up");
        // Dev mode forgets its catalog on restart: the successful, smaller catalog removes the old route.
        bed.awaitStatus(before, 404);
    }

    private Map<String, Integer> bodies(String host, int requests) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < requests; i++) {
            HttpResponse<String> r = bed.get(host);
            if (r.statusCode() == 200) {
                seen.merge(r.body(), 1, Integer::sum);
            }
        }
        return seen;
    }
}
