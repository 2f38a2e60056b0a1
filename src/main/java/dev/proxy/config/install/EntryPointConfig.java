package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * One entry point ({@code entryPoints.<name>}): a TCP listener that serves HTTP.
 *
 * @param address          {@code [host]:port}; required
 * @param transport        lifecycle and timeouts
 * @param forwardedHeaders trust of incoming {@code X-Forwarded-*} headers
 * @param http             defaults for the routers on this entry point (middlewares)
 * @param http2            HTTP/2 settings (maxConcurrentStreams)
 */
public record EntryPointConfig(@Nullable String address, @Nullable TransportConfig transport,
                               @Nullable ForwardedHeadersConfig forwardedHeaders, @Nullable EntryPointHttpConfig http,
                               @Nullable EntryPointHttp2Config http2) {

    public EntryPointConfig {
        if (address == null || address.isBlank()) {
            throw new InvalidValueException("address", "an entry point needs an address such as :8000");
        }
        try {
            ListenAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("address", e.getMessage());
        }
        transport = transport == null ? TransportConfig.DEFAULT : transport;
        forwardedHeaders = forwardedHeaders == null ? ForwardedHeadersConfig.DEFAULT : forwardedHeaders;
        http = http == null ? EntryPointHttpConfig.DEFAULT : http;
        http2 = http2 == null ? EntryPointHttp2Config.DEFAULT : http2;
    }

    public static EntryPointConfig at(String address) {
        return new EntryPointConfig(address, null, null, null, null);
    }

    public ListenAddress listenAddress() {
        return ListenAddress.parse(address);
    }
}
