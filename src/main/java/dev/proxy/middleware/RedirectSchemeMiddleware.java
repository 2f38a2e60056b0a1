package dev.proxy.middleware;

import dev.proxy.config.dynamic.RedirectScheme;
import dev.proxy.server.Exchange;
import java.util.function.Predicate;

/**
 * {@code redirectScheme}: redirects a request that did not arrive on the target scheme (or, with a port, not on that
 * port) to the same host and path on it. A request already there passes, so the middleware can sit on a router
 * that serves both schemes without a redirect loop.
 */
final class RedirectSchemeMiddleware implements RequestStep {

    private final RedirectScheme config;
    private final String targetPort;
    private final Predicate<Exchange> trustsForwardedHeaders;

    RedirectSchemeMiddleware(RedirectScheme config, Predicate<Exchange> trustsForwardedHeaders) {
        this.config = config;
        this.targetPort = ClientUrl.isDefault(config.scheme(), config.port()) ? "" : config.port();
        this.trustsForwardedHeaders = trustsForwardedHeaders;
    }

    @Override
    public boolean apply(Exchange exchange) {
        ClientUrl url = ClientUrl.of(exchange, trustsForwardedHeaders);
        boolean onScheme = url.scheme().equals(config.scheme());
        if (onScheme && (config.port().isEmpty() || url.port().equals(targetPort))) {
            return true;
        }
        ClientUrl target = new ClientUrl(config.scheme(), url.host(), targetPort, url.pathAndQuery());
        ClientUrl.redirect(exchange, target.format(), config.permanent());
        return false;
    }
}
