package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.RealConsul;
import dev.proxy.testing.consul.ServiceRegistration;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hostile registrations in a real Consul agent: whatever a service registers about itself, the odd instance is
 * skipped with its reason (in {@code explain()}) and never reached, its well-formed neighbour keeps routing, and the
 * provider copes with duplicate service IDs across nodes and 10,000 services. Answers the agent itself never sends
 * (truncated JSON, uint64 and backwards indexes) are in {@link CatalogHostileAnswersTest}.
 */
@RealConsul
class RegistryCatalogHostileIT {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryCatalogHostileIT.class);

    private final CatalogTestBed bed = new CatalogTestBed();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private final List<String> nodes = new ArrayList<>();
    private ConsulAgent agent;

    @AfterEach
    void close() {
        if (agent != null && agent.isRunning()) {
            nodes.forEach(n -> agent.send("PUT", "/v1/catalog/deregister", null, "{\"Node\": \"" + n + "\"}"));
        }
        bed.close();
    }

    /**
     * Each row registers a hostile instance as {@code bad-<tag>} next to a plain {@code good-<tag>}. The agent accepts
     * every one of these registrations (it validates neither tag text nor addresses), so the provider is the only
     * line of defence. {@code {port}} is the hostile instance's recording backend.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        CR LF in a rule tag           | 127.0.0.1     | {port} | proxy.http.routers.r.rule=Host(`bad`)\\r\\nX-Injected: 1          | control characters
        LF in a header tag            | 127.0.0.1     | {port} | proxy.http.middlewares.h.headers.customrequestheaders.X-A=1\\nX-B: 2 | control characters
        NUL in a tag                  | 127.0.0.1     | {port} | proxy.http.routers.r.entrypoints=web\\u0000                  | control characters
        server.port 0                 | 127.0.0.1     | {port} | proxy.http.services.s.loadbalancer.server.port=0           | not a port (1-65535)
        server.port 65536             | 127.0.0.1     | {port} | proxy.http.services.s.loadbalancer.server.port=65536       | not a port (1-65535)
        server.port -1                | 127.0.0.1     | {port} | proxy.http.services.s.loadbalancer.server.port=-1          | not a port (1-65535)
        registered port 0, no tag     | 127.0.0.1     | 0      | ''                                                          | port is missing
        address with spaces           | not an ip!    | {port} | ''                                                          | is not an IP address or host name
        address with a port           | 127.0.0.1:80  | {port} | ''                                                          | is not an IP address or host name
        address with a path           | 127.0.0.1/x   | {port} | ''                                                          | is not an IP address or host name
        address with user info        | u@127.0.0.1   | {port} | ''                                                          | is not an IP address or host name
        IPv6 with a zone              | fe80::1%eth0  | {port} | ''                                                          | is not an IP address or host name
        IPv6 prefix                   | ::1/128       | {port} | ''                                                          | is not an IP address or host name
        """)
    void aHostileInstanceIsSkippedWithItsReasonAndItsNeighbourStillRoutes(String description, String address,
                                                                         String port, String tag, String reason,
                                                                         ConsulAgent consul) {
        String good = "good-" + bed.tag;
        String bad = "bad-" + bed.tag;
        int hostile = backend("hostile");
        CatalogSource source = bed.run(bed.options(consul));
        bed.register(consul, ServiceRegistration.of(good, backend(good)));
        ServiceRegistration registration = ServiceRegistration.of(bad, hostile).withAddress(address)
                .withId(bad + "-1");
        if (port.equals("0")) {
            registration = new ServiceRegistration(registration.id(), bad, address, 0, List.of(), Map.of(), null, false);
        }
        if (!tag.isEmpty()) {
            registration = registration.withTags(unescape(tag));
        }
        bed.register(consul, registration);

        bed.awaitBody(good, good);
        await().atMost(CatalogTestBed.SYNC).until(() -> source.explain().stream().anyMatch(e -> e.service().equals(bad)));
        assertThat(source.explain()).filteredOn(e -> e.service().equals(bad)).singleElement().satisfies(e -> {
            assertThat(e.exposed()).isFalse();
            assertThat(e.reason()).contains(reason);
            assertThat(e.reason()).doesNotContain("\r", "\n", "\0");
        });
        assertThat(bed.get(bad).statusCode()).isEqualTo(404);
        assertThat(bed.get("bad").statusCode()).isEqualTo(404);
        assertThat(bed.get(good).body()).isEqualTo(good);
        assertThat(hits.get("hostile")).hasValue(0);
    }

    @ParameterizedTest(name = "address {0}")
    @CsvSource(textBlock = """
        localhost
        127.0.0.1
        [127.0.0.1]
        """)
    void hostNamesAndBracketedAddressesAreRouted(String address, ConsulAgent consul) {
        String name = "named-" + bed.tag;
        bed.run(bed.options(consul));
        bed.register(consul, ServiceRegistration.of(name, backend(name)).withAddress(address));
        bed.awaitBody(name, name);
    }

    @Test
    void sameServiceIdOnTwoNodesIsTwoServers(ConsulAgent consul) {
        agent = consul;
        String name = "dup-" + bed.tag;
        int a = backend("a");
        int b = backend("b");
        bed.run(bed.options(consul));
        for (Map.Entry<String, Integer> node : Map.of("node-a-" + bed.tag, a, "node-b-" + bed.tag, b).entrySet()) {
            nodes.add(node.getKey());
            catalogRegister(consul, node.getKey(), List.of(service(name, name, node.getValue())));
        }

        await().atMost(CatalogTestBed.SYNC).until(() -> bodies(name, 4).size() == 2);
        assertThat(bodies(name, 10)).isEqualTo(Map.of("a", 5, "b", 5));
    }

    @Test
    void tenThousandServicesAreAllRouted(@RealConsul(dedicated = true) ConsulAgent consul) {
        agent = consul;
        int count = 10_000;
        int port = backend("bulk");
        String node = "bulk-" + bed.tag;
        nodes.add(node);
        long start = System.nanoTime();
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(service("bulk-" + i, "bulk-" + i + "-" + bed.tag, port));
            if (batch.size() == 60 || i == count - 1) {
                catalogRegister(consul, node, batch);
                batch.clear();
            }
        }
        long registered = System.nanoTime();
        CatalogSource source = bed.run(bed.options(consul, "--refreshInterval=1m"));
        // 10,000 health reads: generous on a loaded 2-core machine; the log line gives the time it took.
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> source.explain().stream().filter(Explanation::exposed).count() == count);
        bed.awaitBody("bulk-" + (count - 1) + "-" + bed.tag, "bulk");
        long routed = System.nanoTime();
        LOG.info("10,000 services: registered in {} ms, routed {} ms later (load {})", (registered - start) / 1_000_000,
                (routed - registered) / 1_000_000, java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());

        // The agent's own "consul" service is the only other entry, skipped by the test's tag constraint.
        assertThat(source.explain()).filteredOn(Explanation::exposed).hasSize(count);
        assertThat(source.explain()).filteredOn(e -> !e.exposed()).extracting(Explanation::service)
                .containsExactly("consul");
        for (int i : new int[] {0, 1, 4999, 9998}) {
            assertThat(bed.get("bulk-" + i + "-" + bed.tag).body()).isEqualTo("bulk");
        }
    }

    /** Registers services on an external node through the transaction API (up to 64 operations per call). */
    private void catalogRegister(ConsulAgent consul, String node, List<Map<String, Object>> services) {
        List<Object> ops = new ArrayList<>();
        ops.add(Map.of("Node", Map.of("Verb", "set", "Node", Map.of("Node", node, "Address", "127.0.0.1"))));
        for (Map<String, Object> s : services) {
            ops.add(Map.of("Service", Map.of("Verb", "set", "Node", node, "Service", s)));
        }
        HttpResponse<String> r;
        try {
            r = consul.send("PUT", "/v1/txn", null, ObjectMapper.getDefault().writeValueAsString(ops));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private Map<String, Object> service(String id, String name, int port) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("ID", id);
        s.put("Service", name);
        s.put("Port", port);
        s.put("Tags", List.of(bed.tag));
        return s;
    }

    /** The escapes of the table ({@code \r}, {@code \n}, {@code \u0000}) as the characters. */
    private static String unescape(String s) {
        return s.replace("\\r", "\r").replace("\\n", "\n").replace("\\u0000", "\0");
    }

    /** A loopback backend answering {@code body} and counting its requests under that name; returns its port. */
    private int backend(String body) {
        return bed.backend(body, hits.computeIfAbsent(body, k -> new AtomicInteger()));
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
