package dev.proxy.tls.acme;

import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * The internal service {@code acme-http@internal}: answers {@code GET /.well-known/acme-challenge/<token>} with the
 * key authorization of a pending HTTP-01 challenge, and 404 for any other token. Its router has the highest
 * priority on each resolver's {@code httpChallenge.entryPoint}, so no user router (a catch-all redirect to https,
 * say) can hide it.
 */
public final class AcmeHttpChallengeHandler implements RouteHandler {

    public static final String NAME = "acme-http@internal";

    private final AcmeChallenges challenges;

    public AcmeHttpChallengeHandler(AcmeChallenges challenges) {
        this.challenges = challenges;
    }

    /** Whether a request is for this handler: a path under {@code /.well-known/acme-challenge/}. */
    public static boolean matches(Exchange exchange) {
        return exchange.path().startsWith(AcmeChallenges.HTTP_PATH_PREFIX);
    }

    @Override
    public void handle(Exchange exchange) {
        String token = exchange.path().substring(AcmeChallenges.HTTP_PATH_PREFIX.length());
        String answer = challenges.keyAuthorization(token);
        if (answer == null) {
            exchange.respond(HttpResponseStatus.NOT_FOUND, "404 page not found");
        } else {
            exchange.respond(HttpResponseStatus.OK, answer);
        }
    }

    @Override
    public String name() {
        return NAME;
    }
}
