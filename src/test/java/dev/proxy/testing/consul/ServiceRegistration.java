package dev.proxy.testing.consul;

import io.micronaut.core.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service instance a test registers with the local agent ({@code PUT /v1/agent/service/register}).
 * Start from {@link #of(String, int)} and add what the test is about.
 *
 * @param id            the instance id, unique on the agent
 * @param name          the service name
 * @param address       the instance address; tests use loopback addresses only
 * @param port          the instance port
 * @param tags          the tags (where {@code proxy.*} routing labels live)
 * @param meta          the service metadata
 * @param health        {@code passing}, {@code warning} or {@code critical} to attach a TTL check in that
 *                      state (change it with {@link ConsulAgent#updateHealth}); {@code null} for no check
 * @param connectNative whether the service speaks Connect mTLS itself
 */
public record ServiceRegistration(
        String id,
        String name,
        String address,
        int port,
        List<String> tags,
        Map<String, String> meta,
        @Nullable String health,
        boolean connectNative) {

    public ServiceRegistration {
        tags = List.copyOf(tags);
        meta = Map.copyOf(meta);
    }

    /** One instance of {@code name} on 127.0.0.1:{@code port}, id {@code name-port}, no tags, no check. */
    public static ServiceRegistration of(String name, int port) {
        return new ServiceRegistration(name + "-" + port, name, "127.0.0.1", port, List.of(), Map.of(), null, false);
    }

    public ServiceRegistration withId(String newId) {
        return new ServiceRegistration(newId, name, address, port, tags, meta, health, connectNative);
    }

    public ServiceRegistration withAddress(String newAddress) {
        return new ServiceRegistration(id, name, newAddress, port, tags, meta, health, connectNative);
    }

    public ServiceRegistration withTags(String... newTags) {
        return new ServiceRegistration(id, name, address, port, List.of(newTags), meta, health, connectNative);
    }

    public ServiceRegistration withMeta(Map<String, String> newMeta) {
        return new ServiceRegistration(id, name, address, port, tags, newMeta, health, connectNative);
    }

    public ServiceRegistration withHealth(String newHealth) {
        return new ServiceRegistration(id, name, address, port, tags, meta, newHealth, connectNative);
    }

    public ServiceRegistration withConnectNative() {
        return new ServiceRegistration(id, name, address, port, tags, meta, health, true);
    }

    /** The request body of Consul's agent service registration. */
    Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ID", id);
        body.put("Name", name);
        body.put("Address", address);
        body.put("Port", port);
        body.put("Tags", tags);
        body.put("Meta", meta);
        if (health != null) {
            // A TTL check keeps the given state until the test changes it; the TTL outlasts any test run.
            body.put("Check", Map.of("CheckID", checkId(id), "TTL", "24h", "Status", health));
        }
        if (connectNative) {
            body.put("Connect", Map.of("Native", true));
        }
        return body;
    }

    static String checkId(String serviceId) {
        return "service:" + serviceId;
    }
}
