package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tls.options.<name>}: how TLS connections are negotiated. Routers pick options by name
 * ({@code tls.options}); {@code default} applies otherwise. Options are chosen per connection from the SNI name.
 *
 * @param minVersion       lowest protocol version (default {@code VersionTLS12}); TLS 1.0 and 1.1 are refused
 * @param maxVersion       highest protocol version (default: the highest supported, TLS 1.3)
 * @param cipherSuites     IANA names of the TLS 1.2 cipher suites allowed, in order (default: the JDK's); as in
 *                         Go, TLS 1.3 suites are not configurable and stay enabled
 * @param curvePreferences key-exchange groups ({@code CurveP256}, {@code CurveP384}, {@code CurveP521},
 *                         {@code X25519}); applied on Java 20 and later
 * @param clientAuth       client certificates (mTLS)
 * @param sniStrict        refuse handshakes whose SNI name matches no certificate (and those without SNI) instead
 *                         of answering with the default certificate
 * @param alpnProtocols    protocols offered through ALPN, in order of preference (default {@code h2},
 *                         {@code http/1.1}, {@code acme-tls/1}); those this proxy does not speak yet are left out
 */
public record TlsOptions(@Nullable TlsVersion minVersion, @Nullable TlsVersion maxVersion,
                         @Nullable List<String> cipherSuites, @Nullable List<String> curvePreferences,
                         @Nullable ClientAuth clientAuth, @Nullable Boolean sniStrict,
                         @Nullable List<String> alpnProtocols) {

    /** The name of the options used when a router names none, and of the options every SNI name starts with. */
    public static final String DEFAULT_NAME = "default";
    public static final List<String> DEFAULT_ALPN = List.of("h2", "http/1.1", "acme-tls/1");
    public static final TlsOptions DEFAULT = new TlsOptions(null, null, null, null, null, null, null);
    /** Go's curve names (lower case) and the JDK's names of the same groups. */
    public static final Map<String, String> CURVES = Map.of("curvep256", "secp256r1", "curvep384", "secp384r1",
            "curvep521", "secp521r1", "x25519", "x25519");

    public TlsOptions {
        minVersion = minVersion == null ? TlsVersion.VersionTLS12 : minVersion;
        if (minVersion.deprecated()) {
            throw new InvalidValueException("minVersion", "TLS 1.0 and 1.1 are deprecated (RFC 8996) and not offered;"
                    + " use VersionTLS12 or VersionTLS13");
        }
        if (maxVersion != null && maxVersion.deprecated()) {
            throw new InvalidValueException("maxVersion", "TLS 1.0 and 1.1 are deprecated (RFC 8996) and not offered;"
                    + " use VersionTLS12 or VersionTLS13");
        }
        if (maxVersion != null && minVersion.after(maxVersion)) {
            throw new InvalidValueException("maxVersion", "is lower than minVersion " + minVersion);
        }
        cipherSuites = trimmed(cipherSuites);
        curvePreferences = trimmed(curvePreferences);
        for (String curve : curvePreferences) {
            if (!CURVES.containsKey(curve.toLowerCase(Locale.ROOT))) {
                throw new InvalidValueException("curvePreferences", "unknown curve \"" + curve
                        + "\"; expected CurveP256, CurveP384, CurveP521 or X25519");
            }
        }
        clientAuth = clientAuth == null ? ClientAuth.NONE : clientAuth;
        sniStrict = sniStrict != null && sniStrict;
        alpnProtocols = alpnProtocols == null ? DEFAULT_ALPN : trimmed(alpnProtocols);
    }

    private static List<String> trimmed(List<String> values) {
        return values == null ? List.of() : values.stream().map(String::trim).filter(v -> !v.isEmpty()).toList();
    }
}
