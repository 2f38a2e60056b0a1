package dev.proxy.ping;

import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.netty.handler.codec.http.HttpResponseStatus;
import jakarta.inject.Singleton;

/**
 * The internal service {@code ping@internal}: answers GET and HEAD with the current ping status and its reason
 * phrase as a text body ({@code OK}, {@code Service Unavailable}; none for 204). Other methods get 405 — Traefik
 * answers any method, which makes {@code POST /ping} look healthy to a misconfigured probe.
 */
@Singleton
public class PingHandler implements RouteHandler {

    private final PingEndpoint endpoint;

    public PingHandler(PingEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void handle(Exchange exchange) {
        if (exchange.refuseUnlessGetOrHead()) {
            return;
        }
        HttpResponseStatus status = HttpResponseStatus.valueOf(endpoint.status());
        String body = status.code() == 204 || status.code() == 304 ? "" : status.reasonPhrase();
        exchange.respond(status, body);
    }

    @Override
    public String name() {
        return "ping@internal";
    }

}
