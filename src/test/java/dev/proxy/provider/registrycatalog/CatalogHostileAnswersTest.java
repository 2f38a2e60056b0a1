package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.proxy.provider.Backoff;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Answers a real Consul agent never gives, from {@link ScriptedConsul}, with the provider's real HTTP client and
 * requests through the data plane: a broken answer fails the refresh and the last good configuration keeps routing
 * (never a partial one); the poller survives and applies the next good answer. Blocking queries follow Consul's
 * index rules with uint64 indexes and indexes going backwards.
 */
class CatalogHostileAnswersTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private final ScriptedConsul consul = new ScriptedConsul();
    private final DataPlane proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
            "--providers.providersThrottleDuration=0s");
    private final List<FixedBackend> backends = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void close() {
        proxy.close();
        consul.close();
        backends.forEach(FixedBackend::close);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        truncated catalog                 | /v1/catalog/services     | 200 | {"web": [], "other": [
        catalog is HTML                   | /v1/catalog/services     | 200 | <html><body>502 Bad Gateway</body></html>
        catalog is an array               | /v1/catalog/services     | 200 | ["web", "other"]
        catalog is JSON null              | /v1/catalog/services     | 200 | null
        catalog nested 100000 deep        | /v1/catalog/services     | 200 | DEEP
        catalog answers 500               | /v1/catalog/services     | 500 | rpc error: leadership lost
        truncated health entries          | /v1/health/service/other | 200 | [{"Node": {"Node": "n1", "Address": "127.0
        health entry without Service      | /v1/health/service/other | 200 | [{"Node": {"Node": "n1"}}]
        health entry is a number          | /v1/health/service/other | 200 | [42]
        health entries are an object      | /v1/health/service/other | 200 | {"Node": {}}
        """)
    void aBrokenAnswerFailsTheRefreshAndTheLastGoodConfigurationStays(String description, String path, int status,
                                                                      String body) throws IOException {
        Map<String, Integer> catalog = new LinkedHashMap<>();
        catalog.put("web", backend("web"));
        catalog.put("other", backend("other"));
        consul.catalog(catalog);
        CatalogSource source = run("--watch=false");
        awaitBody("other", "other");
        long failed = source.failedRefreshes();

        // Had it been applied, the broken answer would at least have dropped "other".
        consul.answers.put(path, new ScriptedConsul.Answer(status, body.equals("DEEP") ? "[".repeat(100_000) : body));
        await().atMost(WAIT).until(() -> source.failedRefreshes() >= failed + 2);
        assertThat(get("other")).isEqualTo("200 other");
        assertThat(get("web")).isEqualTo("200 web");
        assertThat(source.explain()).extracting(Explanation::service).containsExactlyInAnyOrder("other", "web");

        // The poller survived: the next good answer is applied.
        catalog.remove("other");
        catalog.put("fresh", backend("fresh"));
        consul.catalog(catalog);
        awaitBody("fresh", "fresh");
        assertThat(get("other")).startsWith("404");
    }

    @Test
    void aUint64IndexIsSentBackAsTheUnsignedNumberItIs() throws IOException {
        consul.catalog(Map.of("web", backend("web")));
        consul.index = "18446744073709551615";
        consul.watchIndexes.add("18446744073709551615");
        run("--watch=true");
        awaitBody("web", "web");

        await().atMost(WAIT).until(() -> consul.targets.stream()
                .anyMatch(t -> t.startsWith("/v1/catalog/services?index=18446744073709551615&")));
        assertThat(consul.targets).noneMatch(t -> t.contains("index=-"));
    }

    @Test
    void anIndexGoingBackwardsStartsTheWatchOverAndANewServiceIsRouted() throws IOException {
        Map<String, Integer> catalog = new LinkedHashMap<>();
        catalog.put("web", backend("web"));
        consul.catalog(catalog);
        consul.watchIndexes.add("100");
        run("--watch=true");
        awaitBody("web", "web");
        await().atMost(WAIT).until(() -> consul.targets.stream().anyMatch(t -> t.contains("index=100&")));

        // A restarted agent: its index starts low again, with a new service.
        catalog.put("fresh", backend("fresh"));
        consul.catalog(catalog);
        consul.index = "5";
        consul.watchIndexes.add("5");
        awaitBody("fresh", "fresh");
        await().atMost(WAIT).until(() -> consul.targets.stream().anyMatch(t -> t.contains("index=5&")));
        List<String> watch = consul.targets.stream().filter(t -> t.startsWith("/v1/catalog/services")).toList();
        List<String> after = watch.subList(watch.indexOf(watch.stream().filter(t -> t.contains("index=100&"))
                .findFirst().orElseThrow()) + 1, watch.size());
        // After 100 came 5: the watch starts over with a query without an index, then blocks on 5; never on 100 again.
        assertThat(after.get(0)).doesNotContain("index=");
        assertThat(after).filteredOn(t -> t.contains("index=")).first().satisfies(t -> assertThat(t).contains("index=5&"));
    }

    @ParameterizedTest(name = "X-Consul-Index \"{0}\" → {1}")
    @CsvSource(delimiter = '|', textBlock = """
        18446744073709551615 | -1
        9223372036854775808  | -9223372036854775808
        42                   | 42
        ' '                  | 0
        """)
    void readsConsulIndexesAsUnsigned64BitNumbers(String header, long expected) {
        assertThat(ConsulHttpClient.consulIndex("GET /v1/catalog/services", header)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "X-Consul-Index \"{0}\" is refused")
    @CsvSource(delimiter = '|', textBlock = """
        18446744073709551616
        -1
        abc
        0x10
        """)
    void refusesIndexesThatAreNotUnsigned64BitNumbers(String header) {
        assertThatThrownBy(() -> ConsulHttpClient.consulIndex("GET /v1/catalog/services", header))
                .isInstanceOf(ConsulException.class)
                .hasMessageContaining("X-Consul-Index \"" + header + "\" is not an unsigned 64-bit number");
    }

    private CatalogSource run(String... flags) {
        List<String> all = new ArrayList<>(List.of("--endpoint.address=" + consul.address(), "--refreshInterval=50ms",
                "--endpoint.endpointWaitTime=60s"));
        all.addAll(List.of(flags));
        var options = Catalog.options(all.toArray(String[]::new));
        CatalogSource source = new CatalogSource("registrycatalog", options,
                new ConsulHttpClient(options, "", name -> null), proxy.backendTls,
                new Backoff(Duration.ofMillis(10), 1.5, 0, Duration.ofMillis(200)));
        proxy.run(source);
        return source;
    }

    private int backend(String body) {
        FixedBackend b = new FixedBackend(body);
        backends.add(b);
        return b.port();
    }

    private String get(String host) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(proxy.url("web", "/"))).header("Host", host)
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void awaitBody(String host, String body) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> get(host).equals("200 " + body));
    }
}
