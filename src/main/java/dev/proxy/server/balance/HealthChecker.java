package dev.proxy.server.balance;

import dev.proxy.config.dynamic.HealthCheck;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Active health checks of one load balancer: every {@code interval} each server gets a probe; a 2xx/3xx answer (or
 * exactly {@code status} when set) keeps or brings it into rotation, anything else (including a timeout) takes it
 * out. Probes run on a small dedicated pool, never on the I/O threads. Servers start healthy, as in Traefik.
 */
final class HealthChecker {

    private static final Logger LOG = LoggerFactory.getLogger(HealthChecker.class);
    private static final ScheduledExecutorService PROBES = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "proxy-healthcheck");
        t.setDaemon(true);
        return t;
    });

    private final String service;
    private final HealthCheck config;
    private final List<ScheduledFuture<?>> tasks;

    HealthChecker(String service, HealthCheck config, List<ServerState> servers) {
        this.service = service;
        this.config = config;
        long interval = config.interval().toMillis();
        this.tasks = servers.stream()
                .<ScheduledFuture<?>>map(s -> PROBES.scheduleWithFixedDelay(() -> probe(s), 0, interval, TimeUnit.MILLISECONDS))
                .toList();
    }

    void close() {
        tasks.forEach(t -> t.cancel(false));
    }

    private void probe(ServerState server) {
        boolean healthy;
        String detail;
        try {
            int status = request(server);
            healthy = config.status() != null ? status == config.status() : status >= 200 && status < 400;
            detail = "status " + status;
        } catch (IOException | RuntimeException e) {
            healthy = false;
            detail = e.toString();
        }
        if (server.setUp(healthy)) {
            if (healthy) {
                LOG.info("service {}: server {} is up again", service, server.target().url());
            } else {
                LOG.warn("service {}: server {} is down ({}), removed from rotation", service, server.target().url(), detail);
            }
        }
    }

    private int request(ServerState server) throws IOException {
        var origin = server.target().origin();
        String scheme = config.scheme() != null ? config.scheme() : origin.tls() ? "https" : "http";
        int port = config.port() != null ? config.port() : origin.port();
        String host = origin.host().contains(":") ? "[" + origin.host() + "]" : origin.host();
        URI uri = URI.create(scheme + "://" + host + ":" + port + server.target().basePath() + config.path());
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
        int timeout = (int) config.timeout().toMillis();
        c.setConnectTimeout(timeout);
        c.setReadTimeout(timeout);
        c.setInstanceFollowRedirects(false);
        c.setRequestMethod(config.method());
        if (config.hostname() != null) {
            c.setRequestProperty("Host", config.hostname());
        }
        config.headers().forEach(c::setRequestProperty);
        try {
            return c.getResponseCode();
        } finally {
            c.disconnect();
        }
    }
}
