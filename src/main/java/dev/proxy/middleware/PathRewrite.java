package dev.proxy.middleware;

import dev.proxy.config.dynamic.AddPrefix;
import dev.proxy.config.dynamic.ReplacePath;
import dev.proxy.config.dynamic.StripPrefix;
import dev.proxy.server.Exchange;
import java.util.List;

/**
 * The path-rewriting middlewares. They change the path sent to the backend ({@link Exchange#rewritePath}); routing
 * is already decided, and the query string is kept.
 */
final class PathRewrite {

    private PathRewrite() {
    }

    /**
     * {@code stripPrefix}: removes the first listed prefix the path starts with (a raw string prefix, as
     * {@code PathPrefix} matches: {@code /api} also strips {@code /apiv2} to {@code /v2}) and names it in
     * {@code X-Forwarded-Prefix}, so that the backend can build links.
     */
    static RequestStep stripPrefix(StripPrefix config) {
        List<String> prefixes = config.prefixes();
        return exchange -> {
            String path = exchange.path();
            for (String prefix : prefixes) {
                if (path.startsWith(prefix)) {
                    String rest = path.substring(prefix.length());
                    exchange.rewritePath(rest.startsWith("/") ? rest : "/" + rest);
                    exchange.setUpstreamHeader("X-Forwarded-Prefix", prefix);
                    break;
                }
            }
            return true;
        };
    }

    /** {@code addPrefix}: puts the prefix in front of the path. */
    static RequestStep addPrefix(AddPrefix config) {
        String prefix = config.prefix().endsWith("/") ? config.prefix().substring(0, config.prefix().length() - 1)
                : config.prefix();
        return exchange -> {
            exchange.rewritePath(prefix + exchange.path());
            return true;
        };
    }

    /** {@code replacePath}: forwards the configured path; the original goes in {@code X-Replaced-Path}. */
    static RequestStep replacePath(ReplacePath config) {
        return exchange -> {
            exchange.request().headers().set("X-Replaced-Path", exchange.path());
            exchange.rewritePath(config.path());
            return true;
        };
    }
}
