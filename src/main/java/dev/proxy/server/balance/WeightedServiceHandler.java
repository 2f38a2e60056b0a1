package dev.proxy.server.balance;

import dev.proxy.config.dynamic.Sticky;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A weighted service (canary split): picks a child service by smooth weighted round robin, skipping unavailable ones. */
public final class WeightedServiceHandler implements ServiceHandler {

    private final String name;
    private final List<ServiceHandler> children;
    private final int[] order;
    private final AtomicLong next = new AtomicLong();
    private final StickySessions sticky;
    private final List<String> tokens;

    public WeightedServiceHandler(String name, List<ServiceHandler> children, List<Integer> weights, Sticky sticky) {
        this.name = name;
        this.children = List.copyOf(children);
        this.order = SmoothWeights.sequence(weights);
        this.sticky = StickySessions.of(sticky, name);
        this.tokens = children.stream().map(c -> StickySessions.token(c.name())).toList();
    }

    @Override
    public void handle(Exchange exchange) {
        ServiceHandler chosen = sticky == null ? null : fromCookie(exchange);
        if (chosen == null) {
            chosen = pick();
            if (chosen != null && sticky != null) {
                sticky.remember(exchange, tokens.get(children.indexOf(chosen)));
            }
        }
        if (chosen == null) {
            exchange.respond(HttpResponseStatus.SERVICE_UNAVAILABLE, "no available server");
            return;
        }
        chosen.handle(exchange);
    }

    private ServiceHandler fromCookie(Exchange exchange) {
        String token = sticky.chosen(exchange);
        int i = token == null ? -1 : tokens.indexOf(token);
        return i >= 0 && children.get(i).available() ? children.get(i) : null;
    }

    ServiceHandler pick() {
        if (order.length == 0) {
            return null;
        }
        long start = next.getAndIncrement();
        for (int i = 0; i < order.length; i++) {
            ServiceHandler c = children.get(order[(int) ((start + i) % order.length)]);
            if (c.available()) {
                return c;
            }
        }
        return null;
    }

    @Override
    public boolean available() {
        return children.stream().anyMatch(ServiceHandler::available);
    }

    @Override
    public String name() {
        return name;
    }
}
