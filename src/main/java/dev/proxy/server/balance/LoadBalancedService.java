package dev.proxy.server.balance;

import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.server.Exchange;
import dev.proxy.server.forward.ForwardOutcome;
import dev.proxy.server.forward.Forwarder;
import dev.proxy.server.forward.Target;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A load-balanced service: smooth weighted round robin over the servers that are up, optional sticky cookie,
 * optional active health checks. No server up → 503 {@code no available server}, as in Traefik.
 */
public final class LoadBalancedService implements ServiceHandler {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LoadBalancedService.class);

    private final String name;
    private final List<ServerState> servers;
    private final int[] order;
    private final AtomicLong next = new AtomicLong();
    private final Forwarder forwarder;
    private final Predicate<Exchange> trustForwarded;
    private final StickySessions sticky;
    private final HealthChecker healthChecker;
    private final ForwardOutcome outcome;

    public LoadBalancedService(String name, LoadBalancer config, Forwarder forwarder, Predicate<Exchange> trustForwarded) {
        this.name = name;
        this.forwarder = forwarder;
        this.trustForwarded = trustForwarded;
        List<ServerState> list = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        String tlsProfile = forwarder.tlsProfile(name);
        for (var s : config.servers()) {
            Target t = Target.of(s.url(), config.passHostHeader(), tlsProfile);
            list.add(new ServerState(t, s.weight(), StickySessions.token(s.url())));
            weights.add(s.weight());
        }
        this.servers = List.copyOf(list);
        this.order = SmoothWeights.sequence(weights);
        this.sticky = StickySessions.of(config.sticky(), name);
        this.healthChecker = config.healthCheck() == null ? null : new HealthChecker(name, config.healthCheck(), servers);
        this.outcome = config.passiveHealthCheck() == null ? ForwardOutcome.IGNORED
                : new PassiveOutcome(config.passiveHealthCheck(), healthChecker != null);
    }

    /** Passive health checking: live requests that fail take their server out of the rotation for a while. */
    private final class PassiveOutcome implements ForwardOutcome {
        private final long window;
        private final int max;
        private final boolean activeBringsBack;

        PassiveOutcome(dev.proxy.config.dynamic.PassiveHealthCheck config, boolean activeBringsBack) {
            this.window = config.failureWindow().toNanos();
            this.max = config.maxFailedAttempts();
            this.activeBringsBack = activeBringsBack;
        }

        @Override
        public void answered(Target target, int status) {
            if (status >= 500) {
                failed(target);
            }
        }

        @Override
        public void failed(Target target) {
            for (ServerState s : servers) {
                if (s.target() == target && s.recordFailure(System.nanoTime(), window, max)) {
                    LOG.warn("service {}: server {} failed {} request(s) within {} ms, out of rotation", name,
                            target.url(), max, window / 1_000_000);
                    if (activeBringsBack) {
                        s.setUp(false); // only the active health check brings it back
                    }
                }
            }
        }
    }

    @Override
    public void handle(Exchange exchange) {
        ServerState chosen = sticky == null ? null : fromCookie(exchange);
        boolean setCookie = sticky != null && chosen == null;
        if (chosen == null) {
            chosen = pick();
        }
        if (chosen == null) {
            exchange.respond(HttpResponseStatus.SERVICE_UNAVAILABLE, "no available server");
            return;
        }
        if (setCookie) {
            sticky.remember(exchange, chosen.cookieValue());
        }
        exchange.serviceUrl(chosen.target().url());
        forwarder.forward(exchange, chosen.target(), trustForwarded, outcome);
    }

    ServerState pick() {
        if (order.length == 0) {
            return null;
        }
        long start = next.getAndIncrement();
        for (int i = 0; i < order.length; i++) {
            ServerState s = servers.get(order[(int) ((start + i) % order.length)]);
            if (s.isUp()) {
                return s;
            }
        }
        return null;
    }

    private ServerState fromCookie(Exchange exchange) {
        String token = sticky.chosen(exchange);
        if (token != null) {
            for (ServerState s : servers) {
                if (s.cookieValue().equals(token) && s.isUp() && s.weight() > 0) {
                    return s;
                }
            }
        }
        return null;
    }

    @Override
    public boolean available() {
        for (ServerState s : servers) {
            if (s.isUp() && s.weight() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Servers and their state, for the API and tests. */
    public List<ServerState> servers() {
        return servers;
    }

    @Override
    public void close() {
        if (healthChecker != null) {
            healthChecker.close();
        }
    }

    @Override
    public String name() {
        return name;
    }
}
