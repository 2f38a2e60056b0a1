package dev.proxy.middleware;

import dev.proxy.config.dynamic.IpAllowList;
import dev.proxy.rules.IpRanges;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.InetAddress;

/**
 * {@code ipAllowList}: lets through only clients whose address is in {@code sourceRange}. The address is the
 * socket peer unless {@code ipStrategy} says which X-Forwarded-For entry to believe — never the header by default,
 * since any client can write it.
 */
final class IpAllowListMiddleware implements RequestStep {

    private final IpRanges allowed;
    private final ClientAddressStrategy strategy;
    private final HttpResponseStatus reject;

    IpAllowListMiddleware(IpAllowList config) {
        this.allowed = IpRanges.parse(config.sourceRange());
        this.strategy = ClientAddressStrategy.of(config.ipStrategy());
        this.reject = HttpResponseStatus.valueOf(config.rejectStatusCode());
    }

    @Override
    public boolean apply(Exchange exchange) {
        InetAddress client = strategy.clientAddress(exchange);
        if (client == null || !allowed.contains(client)) {
            exchange.respond(reject, reject.reasonPhrase());
            return false;
        }
        return true;
    }
}
