package dev.proxy.provider.registrycatalog;

import static dev.proxy.provider.registrycatalog.Catalog.options;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.testing.DataPlane;
import dev.proxy.testing.FixedBackend;
import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.ServiceRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.UUID;

/**
 * A data plane, real loopback backends and registrations in a real Consul agent, for the provider's integration
 * tests. Every test gets its own tag and a provider constrained to it, so tests sharing an agent never see each
 * other's services; {@link #close()} deregisters what the test registered.
 */
final class CatalogTestBed implements AutoCloseable {

    static final Duration SYNC = Duration.ofSeconds(15);

    final String tag = "it-" + UUID.randomUUID().toString().substring(0, 8);
    final DataPlane proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0",
            "--providers.providersThrottleDuration=0s");
    private final List<AutoCloseable> backends = new ArrayList<>();
    private final List<ConsulAgent> agents = new ArrayList<>();
    private final List<String> registered = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** Provider options for {@code consul}'s plain HTTP API, polling every 100 ms, limited to this test's tag. */
    RegistryCatalogConfig options(ConsulAgent consul, String... flags) {
        List<String> all = new ArrayList<>(List.of("--endpoint.address=" + consul.httpAddress().getAuthority(),
                "--refreshInterval=100ms", "--endpoint.endpointWaitTime=300ms", "--constraints=Tag(`" + tag + "`)"));
        all.addAll(List.of(flags));
        return Catalog.options(all.toArray(String[]::new));
    }

    /** A provider over {@code options}, not started. */
    CatalogSource source(RegistryCatalogConfig options) {
        return new CatalogSource("registrycatalog", options, new ConsulHttpClient(options, "", name -> null),
                proxy.backendTls);
    }

    /** A provider over {@code options}, running into the data plane. */
    CatalogSource run(RegistryCatalogConfig options) {
        CatalogSource source = source(options);
        proxy.run(source);
        return source;
    }

    /** A loopback HTTP backend answering its name; returns its port. */
    int backend(String name) {
        return backend(name, new AtomicInteger());
    }

    /** A loopback HTTP backend answering its name and counting its requests in {@code hits}; returns its port. */
    int backend(String name, AtomicInteger hits) {
        FixedBackend b = new FixedBackend(name, hits);
        backends.add(b);
        return b.port();
    }

    void adopt(HttpServer server) {
        backends.add(() -> server.stop(0));
    }

    /** Registers {@code service} with this test's tag added. */
    void register(ConsulAgent consul, ServiceRegistration service) {
        List<String> tags = new ArrayList<>(service.tags());
        tags.add(tag);
        consul.register(service.withTags(tags.toArray(String[]::new)));
        registered.add(service.id());
        if (!agents.contains(consul)) {
            agents.add(consul);
        }
    }

    /** GET / through the proxy with this Host (and extra header name/value pairs). */
    HttpResponse<String> get(String host, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(proxy.url("web", "/")))
                .header("Host", host).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            builder.headers(headers);
        }
        HttpRequest request = builder.build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until {@code host} answers 200 with {@code body}. */
    void awaitBody(String host, String body) {
        await().atMost(SYNC).pollInterval(Duration.ofMillis(20)).until(() -> {
            HttpResponse<String> r = get(host);
            return r.statusCode() == 200 && r.body().equals(body);
        });
    }

    /** Waits until {@code host} answers {@code status}. */
    void awaitStatus(String host, int status) {
        await().atMost(SYNC).pollInterval(Duration.ofMillis(20)).until(() -> get(host).statusCode() == status);
    }

    @Override
    public void close() {
        proxy.close();
        for (AutoCloseable b : backends) {
            try {
                b.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        for (ConsulAgent agent : agents) {
            if (agent.isRunning()) {
                registered.forEach(id -> {
                    try {
                        agent.deregister(id);
                    } catch (RuntimeException gone) {
                        // a restarted dev agent has forgotten it
                    }
                });
            }
        }
    }
}
