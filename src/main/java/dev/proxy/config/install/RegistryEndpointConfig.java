package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * {@code providers.registryCatalog.endpoint}: how to reach the Consul agent.
 *
 * @param address          {@code host:port}; empty means {@code CONSUL_HTTP_ADDR}, else {@code 127.0.0.1:8500}
 * @param scheme           {@code http} or {@code https}; empty means http (https when {@code tls} is set)
 * @param datacenter       empty means the agent's datacenter
 * @param token            ACL token, sent only in the {@code X-Consul-Token} header; empty means {@code CONSUL_HTTP_TOKEN}
 * @param httpAuth         basic authentication in front of the agent
 * @param tls              CA and client certificate
 * @param endpointWaitTime the {@code wait} of blocking queries (0 means Consul's default of 5m)
 */
public record RegistryEndpointConfig(@Nullable String address, @Nullable String scheme, @Nullable String datacenter,
                                     @Nullable Secret token, @Nullable HttpAuthConfig httpAuth,
                                     @Nullable ClientTlsConfig tls, @Nullable Duration endpointWaitTime) {

    public static final String DEFAULT_ADDRESS = "127.0.0.1:8500";
    public static final RegistryEndpointConfig DEFAULT = new RegistryEndpointConfig(null, null, null, null, null, null, null);

    public RegistryEndpointConfig {
        address = address == null ? "" : address.trim();
        scheme = scheme == null ? "" : scheme.trim().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.isEmpty() && !scheme.equals("http") && !scheme.equals("https")) {
            throw new InvalidValueException("scheme", "must be http or https");
        }
        datacenter = datacenter == null ? "" : datacenter;
        token = token == null ? new Secret("") : token;
        endpointWaitTime = endpointWaitTime == null ? Duration.ZERO : endpointWaitTime;
        if (endpointWaitTime.isNegative()) {
            throw new InvalidValueException("endpointWaitTime", "must not be negative");
        }
    }
}
