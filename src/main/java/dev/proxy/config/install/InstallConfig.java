package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The install configuration: what is fixed while the proxy runs (entry points, providers, ping, logging). Built by
 * {@link InstallConfigLoader} from the file, environment variables and flags.
 *
 * @param entryPoints named listeners
 * @param ping        the health endpoint; {@code null} when disabled
 * @param log         the proxy's own log
 * @param providers   dynamic configuration sources
 * @param serversTransport how backends are reached
 * @param certificatesResolvers named ACME resolvers that routers refer to with {@code tls.certResolver}
 * @param api         the JSON API and dashboard; {@code null} when disabled
 * @param metrics     Prometheus metrics
 * @param accessLog   one line per request; {@code null} when disabled
 */
public record InstallConfig(@Nullable Map<String, EntryPointConfig> entryPoints, @Nullable PingConfig ping,
                            @Nullable LogConfig log, @Nullable ProvidersConfig providers,
                            @Nullable ServersTransportConfig serversTransport,
                            @Nullable Map<String, CertificateResolverConfig> certificatesResolvers,
                            @Nullable ApiConfig api, @Nullable MetricsConfig metrics,
                            @Nullable AccessLogConfig accessLog) {

    /** Name and port of the internal entry point created for ping when it is not defined (as in Traefik). */
    public static final String INTERNAL_ENTRY_POINT = "proxy";
    public static final String INTERNAL_ENTRY_POINT_ADDRESS = ":8080";

    public InstallConfig {
        Map<String, EntryPointConfig> eps = new LinkedHashMap<>(entryPoints == null ? Map.of() : entryPoints);
        metrics = metrics == null ? MetricsConfig.NONE : metrics;
        // Ping, the API (insecure mode) or metrics on the default entry point create it on :8080 when the user did
        // not define it, as in Traefik.
        boolean pingThere = ping != null && ping.entryPoint().equals(INTERNAL_ENTRY_POINT);
        boolean apiThere = api != null && api.insecure();
        boolean metricsThere = metrics.prometheus() != null && !metrics.prometheus().manualRouting()
                && metrics.prometheus().entryPoint().equals(INTERNAL_ENTRY_POINT);
        if ((pingThere || apiThere || metricsThere) && !eps.containsKey(INTERNAL_ENTRY_POINT)) {
            eps.put(INTERNAL_ENTRY_POINT, EntryPointConfig.at(INTERNAL_ENTRY_POINT_ADDRESS));
        }
        entryPoints = java.util.Collections.unmodifiableMap(eps);
        log = log == null ? LogConfig.DEFAULT : log;
        providers = providers == null ? ProvidersConfig.NONE : providers;
        serversTransport = serversTransport == null ? ServersTransportConfig.DEFAULT : serversTransport;
        certificatesResolvers = certificatesResolvers == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(certificatesResolvers));
        checkResolvers(entryPoints, certificatesResolvers);
    }

    /** Names that refer across sections must exist: a typo would otherwise only show when a certificate is due. */
    private static void checkResolvers(Map<String, EntryPointConfig> entryPoints,
                                       Map<String, CertificateResolverConfig> resolvers) {
        resolvers.forEach((name, resolver) -> {
            HttpChallengeConfig http = resolver.acme().httpChallenge();
            if (http != null && !entryPoints.containsKey(http.entryPoint())) {
                throw new InvalidValueException("certificatesResolvers." + name + ".acme.httpChallenge.entryPoint",
                        "entry point \"" + http.entryPoint() + "\" does not exist");
            }
        });
        entryPoints.forEach((name, ep) -> {
            EntryPointTlsConfig tls = ep.http().tls();
            if (tls != null && tls.certResolver() != null && !resolvers.containsKey(tls.certResolver())) {
                throw new InvalidValueException("entryPoints." + name + ".http.tls.certResolver",
                        "certificate resolver \"" + tls.certResolver() + "\" does not exist");
            }
        });
    }

    /** Without the sections added after the first release (tests and older callers). */
    public InstallConfig(Map<String, EntryPointConfig> entryPoints, PingConfig ping, LogConfig log,
                         ProvidersConfig providers, ServersTransportConfig serversTransport) {
        this(entryPoints, ping, log, providers, serversTransport, null, null, null, null);
    }

    /** Without the operating sections (api, metrics, accessLog). */
    public InstallConfig(Map<String, EntryPointConfig> entryPoints, PingConfig ping, LogConfig log,
                         ProvidersConfig providers, ServersTransportConfig serversTransport,
                         Map<String, CertificateResolverConfig> certificatesResolvers) {
        this(entryPoints, ping, log, providers, serversTransport, certificatesResolvers, null, null, null);
    }

    public boolean pingEnabled() {
        return ping != null;
    }
}
