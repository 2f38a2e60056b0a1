package dev.proxy.middleware;

import dev.proxy.config.dynamic.IpAllowList;
import dev.proxy.rules.IpRanges;
import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.InetAddress;

/**
 * {@code ipAllowList}: lets through only clients whose address is in {@code sourceRange}. The address is the
 * socket peer unless {@code ipStrategy} says which X-Forwarded-For entry to believe — never the header by default,
 * since any client can write it.
 */
public final class IpAllowListMiddleware implements HttpMiddleware {

    private final IpRanges allowed;
    private final ClientAddressStrategy strategy;
    private final HttpResponseStatus reject;

    public IpAllowListMiddleware(IpAllowList config) {
        this.allowed = IpRanges.parse(config.sourceRange());
        this.strategy = ClientAddressStrategy.of(config.ipStrategy());
        this.reject = HttpResponseStatus.valueOf(config.rejectStatusCode());
    }

    @Override
    public RouteHandler wrap(RouteHandler next) {
        return new RouteHandler() {
            @Override
            public void handle(Exchange exchange) {
                InetAddress client = strategy.clientAddress(exchange);
                if (client == null || !allowed.contains(client)) {
                    exchange.respond(reject, reject.reasonPhrase());
                    return;
                }
                next.handle(exchange);
            }

            @Override
            public String name() {
                return next.name();
            }
        };
    }

}
