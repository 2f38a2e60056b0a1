package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.net.URI;
import java.util.Locale;

/**
 * One backend of a load balancer.
 *
 * @param url    {@code http://host:port} (a path prefix is allowed), {@code https://}, or {@code h2c://} (HTTP/2 in
 *               cleartext with prior knowledge, as gRPC servers speak it)
 * @param weight relative share, default 1; 0 takes the server out of rotation
 * @param port   label form ({@code loadbalancer.server.port}): providers turn it into a URL
 * @param scheme label form ({@code loadbalancer.server.scheme})
 */
public record Server(@Nullable String url, @Nullable Integer weight, @Nullable String port, @Nullable String scheme) {

    public Server {
        weight = weight == null ? 1 : weight;
        if (weight < 0) {
            throw new InvalidValueException("weight", "must not be negative");
        }
        if (url != null && !url.isBlank()) {
            URI u;
            try {
                u = URI.create(url.trim());
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException("url", "not a valid URL");
            }
            String s = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!s.equals("http") && !s.equals("https") && !s.equals("h2c")) {
                throw new InvalidValueException("url", "scheme must be http, https or h2c");
            }
            if (u.getHost() == null) {
                throw new InvalidValueException("url", "no host");
            }
        }
    }

    public static Server of(String url) {
        return new Server(url, null, null, null);
    }
}
