package dev.proxy.provider.registrycatalog;

import dev.proxy.config.install.SelfRegistrationConfig;
import dev.proxy.provider.Backoff;
import io.micronaut.core.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the proxy itself with the local Consul agent ({@code PUT /v1/agent/service/register}) while the provider
 * runs, with an HTTP check on its {@code /ping}: during a graceful shutdown ping answers the terminating status, so
 * the check turns critical and Consul stops sending traffic before the proxy goes; the registration is removed when
 * the provider stops. Registration is retried with backoff until it succeeds (Consul may come up after the proxy).
 *
 * <p>Done with the provider's own client rather than micronaut-discovery-client's registration: that module
 * registers the application by itself and turns on the bootstrap context, which a proxy that is off-by-default about
 * registering must not do.
 */
final class SelfRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(SelfRegistration.class);

    private final CatalogClient client;
    private final Map<String, Object> body;
    private final String id;
    private final Backoff backoff;
    private volatile boolean stopped;
    private volatile boolean registered;
    private @Nullable Thread thread;

    /**
     * @param defaultName     the provider's {@code serviceName}
     * @param defaultCheckUrl the ping URL when ping is enabled, or empty
     */
    SelfRegistration(SelfRegistrationConfig config, String defaultName, String defaultCheckUrl, String hostName,
                     CatalogClient client, Backoff backoff) {
        this.client = client;
        this.backoff = backoff;
        String name = config.name().isEmpty() ? defaultName : config.name();
        this.id = config.id().isEmpty() ? name + "-" + hostName + "-" + config.port() : config.id();
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("ID", id);
        b.put("Name", name);
        if (!config.address().isEmpty()) {
            b.put("Address", config.address());
        }
        b.put("Port", config.port());
        b.put("Tags", config.tags());
        String checkUrl = config.checkUrl().isEmpty() ? defaultCheckUrl : config.checkUrl();
        if (!checkUrl.isEmpty()) {
            b.put("Check", Map.of("CheckID", "service:" + id, "Name", "proxy ping", "HTTP", checkUrl,
                    "Interval", config.checkInterval().toMillis() + "ms"));
        }
        if (config.connect()) {
            b.put("Connect", Map.of("Native", true));
        }
        this.body = Map.copyOf(b);
    }

    String id() {
        return id;
    }

    boolean registered() {
        return registered;
    }

    /** Registers on a thread of its own, retrying until it succeeds or {@link #stop()}. */
    synchronized void start() {
        Thread t = new Thread(this::registerUntilDone, "proxy-registrycatalog-self-registration");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void registerUntilDone() {
        for (int attempt = 0; !stopped; attempt++) {
            try {
                client.register(body);
                registered = true;
                LOG.info("registered this proxy in Consul as {} (service {})", id, body.get("Name"));
                return;
            } catch (RuntimeException e) {
                if (attempt == 0) {
                    LOG.warn("cannot register this proxy in Consul yet, retrying with backoff: {}", e.getMessage());
                }
                LockSupport.parkNanos(backoff.delay(attempt, ThreadLocalRandom.current().nextDouble()).toNanos());
            }
        }
    }

    /** Deregisters (once, best effort): a proxy that is going away must not stay in the catalog. */
    synchronized void stop() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
        try {
            if (registered) {
                client.deregister(id);
                registered = false;
                LOG.info("deregistered this proxy ({}) from Consul", id);
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot deregister this proxy ({}) from Consul: {}", id, e.getMessage());
        } finally {
            client.close();
        }
    }

}
