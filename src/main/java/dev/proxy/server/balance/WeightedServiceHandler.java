package dev.proxy.server.balance;

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

    public WeightedServiceHandler(String name, List<ServiceHandler> children, List<Integer> weights) {
        this.name = name;
        this.children = List.copyOf(children);
        this.order = SmoothWeights.sequence(weights);
    }

    @Override
    public void handle(Exchange exchange) {
        ServiceHandler chosen = pick();
        if (chosen == null) {
            exchange.respond(HttpResponseStatus.SERVICE_UNAVAILABLE, "no available server");
            return;
        }
        chosen.handle(exchange);
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
