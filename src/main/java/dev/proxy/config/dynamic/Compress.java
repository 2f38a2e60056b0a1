package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code compress}: compresses responses the client accepts compressed ({@code compress=true} gives the defaults).
 *
 * @param excludedContentTypes media types never compressed (in addition to event streams and gRPC)
 * @param includedContentTypes when set, only these media types are compressed (exclusive with the above)
 * @param minResponseBodyBytes smaller bodies are sent as they are (default 1024)
 * @param encodings            the encodings offered, in order of preference on equal client q-values
 *                             (default gzip, br, zstd)
 * @param defaultEncoding      used when the request has no {@code Accept-Encoding} at all (none by default)
 */
public record Compress(@Nullable List<String> excludedContentTypes, @Nullable List<String> includedContentTypes,
                       @Nullable Integer minResponseBodyBytes, @Nullable List<String> encodings,
                       @Nullable String defaultEncoding) {

    public static final int DEFAULT_MIN_RESPONSE_BODY_BYTES = 1024;
    /** Bodies of unknown length are held back up to this many bytes to decide; a larger setting is refused. */
    public static final int MAX_MIN_RESPONSE_BODY_BYTES = 1 << 20;
    public static final List<String> DEFAULT_ENCODINGS = List.of("gzip", "br", "zstd");
    private static final List<String> KNOWN = List.of("gzip", "br", "zstd");

    public Compress {
        excludedContentTypes = mediaTypes("excludedContentTypes", excludedContentTypes);
        includedContentTypes = mediaTypes("includedContentTypes", includedContentTypes);
        if (!excludedContentTypes.isEmpty() && !includedContentTypes.isEmpty()) {
            throw new InvalidValueException("includedContentTypes",
                    "excludedContentTypes and includedContentTypes cannot both be set");
        }
        minResponseBodyBytes = minResponseBodyBytes == null ? DEFAULT_MIN_RESPONSE_BODY_BYTES : minResponseBodyBytes;
        if (minResponseBodyBytes < 0 || minResponseBodyBytes > MAX_MIN_RESPONSE_BODY_BYTES) {
            throw new InvalidValueException("minResponseBodyBytes", "must be between 0 and " + MAX_MIN_RESPONSE_BODY_BYTES);
        }
        List<String> enc = new ArrayList<>();
        for (String e : encodings == null || encodings.isEmpty() ? DEFAULT_ENCODINGS : encodings) {
            String n = e.trim().toLowerCase(Locale.ROOT);
            if (!KNOWN.contains(n)) {
                throw new InvalidValueException("encodings", "unknown encoding \"" + e + "\" (gzip, br or zstd)");
            }
            if (!enc.contains(n)) {
                enc.add(n);
            }
        }
        encodings = List.copyOf(enc);
        defaultEncoding = defaultEncoding == null ? "" : defaultEncoding.trim().toLowerCase(Locale.ROOT);
        if (!defaultEncoding.isEmpty() && !encodings.contains(defaultEncoding)) {
            throw new InvalidValueException("defaultEncoding", "must be one of the encodings " + encodings);
        }
    }

    private static List<String> mediaTypes(String field, List<String> in) {
        List<String> out = new ArrayList<>();
        for (String t : in == null ? List.<String>of() : in) {
            String m = t.split(";", 2)[0].trim().toLowerCase(Locale.ROOT); // parameters do not count
            int slash = m.indexOf('/');
            if (slash <= 0 || slash == m.length() - 1 || !HeaderSyntax.isToken(m.substring(0, slash))
                    || !HeaderSyntax.isToken(m.substring(slash + 1))) {
                throw new InvalidValueException(field, "\"" + t + "\" is not a media type such as text/html");
            }
            out.add(m);
        }
        return List.copyOf(out);
    }
}
