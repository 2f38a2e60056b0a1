package dev.proxy.provider.registrycatalog;

import static dev.proxy.provider.registrycatalog.Catalog.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.server.forward.BackendTls;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The wire side of the client against a loopback stand-in for the agent that records requests: query parameters
 * per option, the token only in its header, errors and garbage. (The real agent is in the ITs.)
 */
class ConsulHttpClientTest {

    private record Seen(String target, String token, String authorization) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private HttpServer agent;
    private volatile int status = 200;
    private volatile String body = "{}";
    private volatile String index = "7";

    @BeforeEach
    void start() throws IOException {
        agent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        agent.createContext("/", ex -> {
            seen.add(new Seen(ex.getRequestURI().toString(), ex.getRequestHeaders().getFirst("X-Consul-Token"),
                    ex.getRequestHeaders().getFirst("Authorization")));
            byte[] out = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.getResponseHeaders().add("X-Consul-Index", index);
            ex.sendResponseHeaders(status, out.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        });
        agent.start();
    }

    @AfterEach
    void stop() {
        agent.stop(0);
    }

    private ConsulHttpClient client(String namespace, String... flags) {
        List<String> all = new ArrayList<>(List.of("--endpoint.address=127.0.0.1:" + agent.getAddress().getPort()));
        all.addAll(List.of(flags));
        RegistryCatalogConfig config = options(all.toArray(String[]::new));
        return new ConsulHttpClient(config, namespace, name -> null);
    }

    @ParameterizedTest(name = "{0} {1} index {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "''                                   | ''   | 0  | /v1/catalog/services",
        "--stale=true                         | ''   | 0  | /v1/catalog/services?stale",
        "--requireConsistent=true             | ''   | 0  | /v1/catalog/services?consistent",
        "--cache=true                         | ''   | 0  | /v1/catalog/services?cached",
        "--cache=true                         | ''   | 12 | /v1/catalog/services?index=12&wait=300000ms",
        "--endpoint.datacenter=eu1            | team | 0  | /v1/catalog/services?dc=eu1&ns=team",
        "--endpoint.endpointWaitTime=2s       | ''   | 3  | /v1/catalog/services?index=3&wait=2000ms",
    })
    void sendsTheOptionsAsQueryParameters(String flag, String namespace, long index, String expected) {
        try (ConsulHttpClient client = flag.isEmpty() ? client(namespace) : client(namespace, flag)) {
            assertThat(client.services(index).index()).isEqualTo(7);
        }
        assertThat(seen).extracting(Seen::target).containsExactly(expected);
    }

    @Test
    void oneProviderPerNamespaceEachSendingItsNamespace() {
        RegistryCatalogConfig config = options("--endpoint.address=127.0.0.1:" + agent.getAddress().getPort(),
                "--namespaces=team-a,team-b");
        Map<String, DynamicConfig> published = new java.util.concurrent.ConcurrentHashMap<>();
        RegistryCatalogProvider provider = new RegistryCatalogProvider(config, new BackendTls(), name -> null, "");
        provider.start(published::put);
        try {
            await().until(() -> published.size() == 2);
        } finally {
            provider.stop();
        }
        assertThat(published).containsOnlyKeys("registrycatalog-team-a", "registrycatalog-team-b");
        assertThat(seen).extracting(Seen::target)
                .contains("/v1/catalog/services?ns=team-a", "/v1/catalog/services?ns=team-b");
    }

    @Test
    void sendsTheTokenOnlyInItsHeaderAndBasicAuth() {
        try (ConsulHttpClient client = client("", "--endpoint.token=s3cret", "--endpoint.httpAuth.username=u",
                "--endpoint.httpAuth.password=p")) {
            client.services(0);
        }
        assertThat(seen).singleElement().satisfies(s -> {
            assertThat(s.target()).doesNotContain("s3cret");
            assertThat(s.token()).isEqualTo("s3cret");
            assertThat(s.authorization()).isEqualTo("Basic dTpw");
        });
    }

    @Test
    void takesTheTokenAndAddressFromTheEnvironmentWhenNotConfigured() {
        Map<String, String> env = Map.of("CONSUL_HTTP_ADDR", "http://127.0.0.1:" + agent.getAddress().getPort(),
                "CONSUL_HTTP_TOKEN", "from-env");
        try (ConsulHttpClient client = new ConsulHttpClient(options(), "", env::get)) {
            client.services(0);
        }
        assertThat(seen).singleElement().extracting(Seen::token).isEqualTo("from-env");
    }

    @Test
    void readsHealthEntriesWithTheNodeAddressAsFallbackAndTheAggregatedStatus() {
        body = """
                [{"Node": {"Node": "n1", "Address": "127.0.0.5", "Datacenter": "dc1"},
                  "Service": {"ID": "web-1", "Service": "web", "Tags": ["a", "proxy.enable=true"], "Address": "",
                              "Port": 8080, "Meta": {"v": "1"}},
                  "Checks": [{"CheckID": "serfHealth", "Status": "passing"}, {"CheckID": "service:web-1", "Status": "warning"}]},
                 {"Node": {"Node": "n2", "Address": "127.0.0.6", "Datacenter": "dc1"},
                  "Service": {"ID": "web-2", "Service": "web", "Tags": [], "Address": "127.0.0.7", "Port": 8081,
                              "Namespace": "team"},
                  "Checks": [{"CheckID": "_service_maintenance:web-2", "Status": "critical"}]}]
                """;
        List<CatalogItem> items;
        try (ConsulHttpClient client = client("")) {
            items = client.instances("web", false, "").value();
        }
        assertThat(seen).extracting(Seen::target).containsExactly("/v1/health/service/web?passing=false");
        assertThat(items).containsExactly(
                new CatalogItem("web", "web-1", "n1", "127.0.0.5", 8080, List.of("a", "proxy.enable=true"),
                        Map.of("v", "1"), "default", "dc1", "warning", false),
                new CatalogItem("web", "web-2", "n2", "127.0.0.7", 8081, List.of(), Map.of(), "team", "dc1",
                        "maintenance", false));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "403 | Permission denied | answered 403 (Permission denied): the ACL token (endpoint.token or CONSUL_HTTP_TOKEN) lacks read permission; it needs service:read and node:read",
        "500 | rpc error         | GET /v1/catalog/services answered 500 (rpc error)",
        "200 | <html>nope        | GET /v1/catalog/services: the answer is not JSON",
        "200 | [1, 2]            | GET /v1/catalog/services: expected a JSON object",
    })
    void failsWithAMessageNamingTheCallAndCause(int code, String answer, String message) {
        status = code;
        body = answer;
        try (ConsulHttpClient client = client("", "--endpoint.token=s3cret")) {
            assertThatThrownBy(() -> client.services(0)).isInstanceOf(ConsulException.class)
                    .hasMessageContaining(message).hasMessageNotContaining("s3cret");
        }
    }

    @Test
    void anUnreachableAgentIsAConsulException() {
        agent.stop(0);
        try (ConsulHttpClient client = client("")) {
            assertThatThrownBy(() -> client.services(0)).isInstanceOf(ConsulException.class)
                    .hasMessageContaining("GET /v1/catalog/services to http://127.0.0.1:");
        }
    }

    @ParameterizedTest(name = "address {0}, scheme {1}, env {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "''                    | ''    | ''                       | http://127.0.0.1:8500/",
        "''                    | ''    | 127.0.0.9:8501           | http://127.0.0.9:8501/",
        "''                    | ''    | https://127.0.0.9:8501   | https://127.0.0.9:8501/",
        "127.0.0.2:9500        | https | 127.0.0.9:8501           | https://127.0.0.2:9500/",
        "http://localhost:8500 | ''    | ''                       | http://localhost:8500/",
    })
    void resolvesTheAgentAddress(String address, String scheme, String env, String expected) {
        List<String> flags = new ArrayList<>();
        if (!address.isEmpty()) {
            flags.add("--endpoint.address=" + address);
        }
        if (!scheme.isEmpty()) {
            flags.add("--endpoint.scheme=" + scheme);
        }
        RegistryCatalogConfig config = options(flags.toArray(String[]::new));
        URI uri = ConsulHttpClient.baseUri(config.endpoint(), name -> env.isEmpty() ? null : env);
        assertThat(uri).hasToString(expected);
    }
}
