package dev.proxy.server.balance;

import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.StickyCookie;
import dev.proxy.server.Exchange;
import dev.proxy.server.forward.ForwardOutcome;
import dev.proxy.server.forward.Forwarder;
import dev.proxy.server.forward.Target;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.DefaultCookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.handler.codec.http.cookie.ServerCookieEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A load-balanced service: smooth weighted round robin over the servers that are up, optional sticky cookie,
 * optional active health checks. No server up → 503 {@code no available server}, as in Traefik.
 */
public final class LoadBalancedService implements ServiceHandler {

    private final String name;
    private final List<ServerState> servers;
    private final int[] order;
    private final AtomicLong next = new AtomicLong();
    private final Forwarder forwarder;
    private final Predicate<Exchange> trustForwarded;
    private final StickyCookie sticky;
    private final String cookieName;
    private final HealthChecker healthChecker;

    public LoadBalancedService(String name, LoadBalancer config, Forwarder forwarder, Predicate<Exchange> trustForwarded) {
        this.name = name;
        this.forwarder = forwarder;
        this.trustForwarded = trustForwarded;
        List<ServerState> list = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        String tlsProfile = forwarder.tlsProfile(name);
        for (var s : config.servers()) {
            Target t = Target.of(s.url(), config.passHostHeader(), tlsProfile);
            list.add(new ServerState(t, s.weight(), hash(s.url())));
            weights.add(s.weight());
        }
        this.servers = List.copyOf(list);
        this.order = SmoothWeights.sequence(weights);
        this.sticky = config.sticky() == null ? null
                : config.sticky().cookie() == null ? new StickyCookie(null, null, null, null, null, null, null)
                : config.sticky().cookie();
        this.cookieName = sticky == null ? null : sticky.name().isEmpty() ? "_" + hash(name).substring(0, 6) : sticky.name();
        this.healthChecker = config.healthCheck() == null ? null : new HealthChecker(name, config.healthCheck(), servers);
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
            String value = chosen.cookieValue();
            exchange.addResponseHeadHook(r -> r.headers().add(HttpHeaderNames.SET_COOKIE, cookie(value)));
        }
        forwarder.forward(exchange, chosen.target(), trustForwarded, ForwardOutcome.IGNORED);
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
        String header = exchange.request().headers().get(HttpHeaderNames.COOKIE);
        if (header == null) {
            return null;
        }
        for (Cookie c : ServerCookieDecoder.LAX.decode(header)) {
            if (c.name().equals(cookieName)) {
                for (ServerState s : servers) {
                    if (s.cookieValue().equals(c.value()) && s.isUp() && s.weight() > 0) {
                        return s;
                    }
                }
            }
        }
        return null;
    }

    private String cookie(String value) {
        DefaultCookie c = new DefaultCookie(cookieName, value);
        c.setPath(sticky.path());
        c.setHttpOnly(sticky.httpOnly());
        c.setSecure(sticky.secure());
        if (!sticky.domain().isEmpty()) {
            c.setDomain(sticky.domain());
        }
        if (sticky.maxAge() != 0) {
            c.setMaxAge(sticky.maxAge());
        }
        if (!sticky.sameSite().isEmpty()) {
            c.setSameSite(switch (sticky.sameSite()) {
                case "none" -> io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite.None;
                case "lax" -> io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite.Lax;
                default -> io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite.Strict;
            });
        }
        return ServerCookieEncoder.STRICT.encode(c);
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

    /** An opaque, stable token for a string: the cookie never reveals a server's address. */
    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
