package dev.proxy.middleware;

import dev.proxy.config.dynamic.Compress;
import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.compression.Brotli;
import io.netty.handler.codec.compression.BrotliEncoder;
import io.netty.handler.codec.compression.JdkZlibEncoder;
import io.netty.handler.codec.compression.ZlibWrapper;
import io.netty.handler.codec.compression.Zstd;
import io.netty.handler.codec.compression.ZstdEncoder;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code compress}: compresses response bodies on the fly with the encoding negotiated from {@code Accept-Encoding}.
 * The encoders are Netty's own (the ones its {@code HttpContentCompressor} uses): the JDK's zlib for gzip, Brotli
 * through brotli4j, Zstandard through zstd-jni; an encoding whose native library cannot load on this platform is
 * dropped from the offer with a warning.
 *
 * <p>Never compressed: HEAD requests, HTTP/1.0 clients (no chunked encoding to replace a Content-Length),
 * informational, 204, 206 and 304 responses, bodies that already have a {@code Content-Encoding}, responses marked
 * {@code Cache-Control: no-transform}, event streams and gRPC, excluded (or not included) media types, bodies
 * shorter than {@code minResponseBodyBytes}. Requests whose own Content-Type is excluded are passed on untouched.
 */
final class CompressMiddleware implements HttpMiddleware {

    private static final Logger LOG = LoggerFactory.getLogger(CompressMiddleware.class);
    /** Compressed already: compressing again costs CPU and gains nothing. Used when no list is configured. */
    private static final Set<String> ALREADY_COMPRESSED = Set.of("application/zip", "application/gzip",
            "application/x-gzip", "application/zstd", "application/x-bzip2", "application/x-xz",
            "application/x-7z-compressed", "application/x-rar-compressed", "application/pdf", "font/woff", "font/woff2");

    private final List<String> encodings;
    private final String defaultEncoding;
    private final List<String> excluded;
    private final List<String> included;
    final int minBytes;

    CompressMiddleware(Compress config) {
        List<String> usable = new ArrayList<>();
        for (String e : config.encodings()) {
            if (available(e)) {
                usable.add(e);
            } else {
                LOG.warn("compress: {} is not available on this platform and is not offered", e);
            }
        }
        this.encodings = List.copyOf(usable);
        this.defaultEncoding = usable.contains(config.defaultEncoding()) ? config.defaultEncoding() : "";
        this.excluded = config.excludedContentTypes();
        this.included = config.includedContentTypes();
        // At least one byte: an empty body is never "compressed" into a few bytes of framing.
        this.minBytes = Math.max(1, config.minResponseBodyBytes());
    }

    private static boolean available(String encoding) {
        return switch (encoding) {
            case "br" -> Brotli.isAvailable();
            case "zstd" -> Zstd.isAvailable();
            default -> true;
        };
    }

    /** A fresh encoder for one response body. */
    static Supplier<ChannelHandler> encoder(String encoding) {
        return switch (encoding) {
            case "br" -> BrotliEncoder::new;
            case "zstd" -> ZstdEncoder::new;
            default -> () -> new JdkZlibEncoder(ZlibWrapper.GZIP, 6);
        };
    }

    @Override
    public RouteHandler wrap(RouteHandler next) {
        return HttpMiddleware.around(next, exchange -> {
            prepare(exchange);
            next.handle(exchange);
        });
    }

    private void prepare(Exchange exchange) {
        if (exchange.isHead() || exchange.clientVersion().equals(HttpVersion.HTTP_1_0)) {
            return;
        }
        String requestType = exchange.request().headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (requestType != null && neverCompressed(mediaType(requestType))) {
            return;
        }
        String encoding = AcceptEncoding.choose(exchange.headerValues(HttpHeaderNames.ACCEPT_ENCODING.toString()),
                encodings, defaultEncoding);
        if (encoding == null) {
            // Not compressed for this client, but it would be for another: caches must know.
            exchange.addResponseHeadHook(head -> {
                if (eligible(head)) {
                    addVary(head.headers());
                }
            });
            return;
        }
        exchange.addResponseBodyFilter(new CompressFilter(this, encoding));
    }

    /** Whether the response may be compressed at all (size aside). */
    boolean eligible(HttpResponse head) {
        int status = head.status().code();
        if (status < 200 || status == 204 || status == 206 || status == 304) {
            return false;
        }
        HttpHeaders h = head.headers();
        String encoding = h.get(HttpHeaderNames.CONTENT_ENCODING);
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            return false;
        }
        if (h.contains(HttpHeaderNames.CONTENT_RANGE)
                || h.containsValue(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_TRANSFORM, true)) {
            return false; // RFC 9110 §7.7: a proxy must not transform such a response
        }
        String type = h.get(HttpHeaderNames.CONTENT_TYPE);
        String media = type == null ? "" : mediaType(type);
        if (neverCompressed(media)) {
            return false;
        }
        if (!included.isEmpty()) {
            return included.contains(media);
        }
        if (!excluded.isEmpty()) {
            return true; // checked by neverCompressed
        }
        return !ALREADY_COMPRESSED.contains(media) && !media.startsWith("image/") && !media.startsWith("video/")
                && !media.startsWith("audio/") || media.equals("image/svg+xml");
    }

    private boolean neverCompressed(String media) {
        // Event streams must reach the client event by event; gRPC has its own message compression.
        return media.equals("text/event-stream") || media.startsWith("application/grpc") || excluded.contains(media);
    }

    static void addVary(HttpHeaders h) {
        for (String v : h.getAll(HttpHeaderNames.VARY)) {
            for (String part : v.split(",")) {
                String p = part.trim();
                if (p.equals("*") || p.equalsIgnoreCase("accept-encoding")) {
                    return;
                }
            }
        }
        h.add(HttpHeaderNames.VARY, "Accept-Encoding");
    }

    private static String mediaType(String contentType) {
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }
}
