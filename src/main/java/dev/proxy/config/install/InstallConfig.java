package dev.proxy.config.install;

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
 */
public record InstallConfig(@Nullable Map<String, EntryPointConfig> entryPoints, @Nullable PingConfig ping,
                            @Nullable LogConfig log, @Nullable ProvidersConfig providers,
                            @Nullable ServersTransportConfig serversTransport) {

    /** Name and port of the internal entry point created for ping when it is not defined (as in Traefik). */
    public static final String INTERNAL_ENTRY_POINT = "proxy";
    public static final String INTERNAL_ENTRY_POINT_ADDRESS = ":8080";

    public InstallConfig {
        Map<String, EntryPointConfig> eps = new LinkedHashMap<>(entryPoints == null ? Map.of() : entryPoints);
        // Ping on the default entry point creates it on :8080 when the user did not define it.
        if (ping != null && ping.entryPoint().equals(INTERNAL_ENTRY_POINT) && !eps.containsKey(INTERNAL_ENTRY_POINT)) {
            eps.put(INTERNAL_ENTRY_POINT, EntryPointConfig.at(INTERNAL_ENTRY_POINT_ADDRESS));
        }
        entryPoints = java.util.Collections.unmodifiableMap(eps);
        log = log == null ? LogConfig.DEFAULT : log;
        providers = providers == null ? ProvidersConfig.NONE : providers;
        serversTransport = serversTransport == null ? ServersTransportConfig.DEFAULT : serversTransport;
    }

    public boolean pingEnabled() {
        return ping != null;
    }
}
