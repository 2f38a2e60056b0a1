package dev.proxy.testing.consul;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A real Consul agent for tests: where it listens, its tokens and certificates, and a few calls to set
 * up a catalog. Tests usually get one from {@link RealConsul}; {@link #stop()} then {@link #start()}
 * gives "Consul restarted" scenarios (the scripted agent keeps its ports and tokens; its in-memory
 * catalog starts empty).
 */
public final class ConsulAgent implements AutoCloseable {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final ConsulVariant variant;
    private final ConsulRuntime runtime;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile @Nullable ConsulEndpoints endpoints;

    ConsulAgent(ConsulVariant variant, ConsulRuntime runtime) {
        this.variant = variant;
        this.runtime = runtime;
    }

    /** An agent run by the project's scripts, keeping its configuration, certificates and log in {@code workdir}. */
    public static ConsulAgent scripted(Path workdir, ConsulVariant variant) {
        return new ConsulAgent(variant, new ScriptedConsulRuntime(ScriptedConsulRuntime.defaultScripts(), workdir, variant));
    }

    /** An agent in a Testcontainers container; needs a Docker engine. */
    public static ConsulAgent inContainer(ConsulVariant variant) {
        return new ConsulAgent(variant, new ContainerConsulRuntime(variant));
    }

    /** Starts the agent and returns once it has a leader. */
    public synchronized ConsulAgent start() {
        if (endpoints == null) {
            try {
                endpoints = runtime.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the Consul agent (" + variant + ")", e);
            }
        }
        return this;
    }

    public synchronized void stop() {
        try {
            runtime.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop the Consul agent (" + variant + ")", e);
        } finally {
            endpoints = null;
        }
    }

    public boolean isRunning() {
        return endpoints != null;
    }

    @Override
    public void close() {
        stop();
    }

    public ConsulVariant variant() {
        return variant;
    }

    public ConsulEndpoints endpoints() {
        ConsulEndpoints current = endpoints;
        if (current == null) {
            throw new IllegalStateException("the Consul agent (" + variant + ") is stopped");
        }
        return current;
    }

    /** The plain HTTP API, e.g. {@code http://127.0.0.1:41234}; on every variant. */
    public URI httpAddress() {
        return endpoints().http();
    }

    /** The HTTPS API that demands the client certificate; TLS variant only. */
    public URI httpsAddress() {
        return require(endpoints().https(), "https");
    }

    /** The ACL management token; ACL variant only. */
    public String managementToken() {
        return require(endpoints().managementToken(), "acl");
    }

    /** A token that may read services and nodes and nothing else; ACL variant only. */
    public String readToken() {
        return require(endpoints().readToken(), "acl");
    }

    /** The test CA and client certificate files; TLS variant only. */
    public ConsulTlsFiles tls() {
        return require(endpoints().tls(), "tls");
    }

    /** {@code pathAndQuery} (e.g. {@code /v1/catalog/services}) on the plain HTTP API. */
    public URI uri(String pathAndQuery) {
        return httpAddress().resolve(pathAndQuery);
    }

    public void register(ServiceRegistration service) {
        expectOk(send("PUT", "/v1/agent/service/register", adminToken(), json(service.body())));
    }

    public void deregister(String serviceId) {
        expectOk(send("PUT", "/v1/agent/service/deregister/" + serviceId, adminToken(), null));
    }

    /** Sets the TTL check of a service registered {@link ServiceRegistration#withHealth with health}. */
    public void updateHealth(String serviceId, String status) {
        String check = ServiceRegistration.checkId(serviceId);
        expectOk(send("PUT", "/v1/agent/check/update/" + check, adminToken(), json(Map.of("Status", status))));
    }

    /** Reads {@code pathAndQuery} with the management token (if any) and parses the JSON answer. */
    public JsonNode read(String pathAndQuery) {
        return read(pathAndQuery, adminToken());
    }

    /** Reads {@code pathAndQuery} with the given token (none if {@code null}) and parses the JSON answer. */
    public JsonNode read(String pathAndQuery, @Nullable String token) {
        HttpResponse<String> response = expectOk(send("GET", pathAndQuery, token, null));
        try {
            return ObjectMapper.getDefault().readValue(response.body(), JsonNode.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON from GET " + pathAndQuery, e);
        }
    }

    /** One request to the plain HTTP API with the given token (none if {@code null}). */
    public HttpResponse<String> send(String method, String pathAndQuery, @Nullable String token, @Nullable String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        if (token != null) {
            request.header("X-Consul-Token", token);
        }
        try {
            return client.send(request.build(), BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + pathAndQuery + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + pathAndQuery, e);
        }
    }

    private @Nullable String adminToken() {
        return endpoints().managementToken();
    }

    private static String json(Object value) {
        try {
            return ObjectMapper.getDefault().writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpResponse<String> expectOk(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            // The body is Consul's error text; it never echoes the token.
            throw new IllegalStateException(response.request().method() + " " + response.uri().getPath()
                    + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }

    private <T> T require(@Nullable T value, String feature) {
        if (value == null) {
            throw new IllegalStateException("the Consul agent (" + variant + ") has no " + feature);
        }
        return value;
    }

    @Override
    public String toString() {
        ConsulEndpoints current = endpoints;
        return "ConsulAgent[" + variant + ", " + (current == null ? "stopped" : current) + "]";
    }
}
