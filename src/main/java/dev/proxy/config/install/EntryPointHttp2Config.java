package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code entryPoints.<name>.http2}: HTTP/2 on the entry point (served to clients that ask for {@code h2} through
 * TLS ALPN, or that speak HTTP/2 with prior knowledge on a cleartext connection).
 *
 * @param maxConcurrentStreams streams one client connection may have open at once, advertised in the server's
 *                             SETTINGS frame; default {@value #DEFAULT_MAX_CONCURRENT_STREAMS}
 */
public record EntryPointHttp2Config(@Nullable Integer maxConcurrentStreams) {

    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 250;
    public static final EntryPointHttp2Config DEFAULT = new EntryPointHttp2Config(null);

    public EntryPointHttp2Config {
        maxConcurrentStreams = maxConcurrentStreams == null ? DEFAULT_MAX_CONCURRENT_STREAMS : maxConcurrentStreams;
        if (maxConcurrentStreams < 1) {
            throw new InvalidValueException("maxConcurrentStreams",
                    "must be at least 1, was " + maxConcurrentStreams);
        }
    }
}
