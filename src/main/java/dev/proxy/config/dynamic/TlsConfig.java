package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tls}: certificates, named TLS options and the default store. Unlike routers, certificates are global:
 * every provider's certificates are served (a union); see {@link ConfigurationMerger} for option names.
 *
 * @param certificates served by SNI name
 * @param options      named TLS options; {@code default} applies when a router names none
 * @param stores       only {@code default}: its default certificate
 */
public record TlsConfig(@Nullable List<TlsCertificate> certificates, @Nullable Map<String, TlsOptions> options,
                        @Nullable Map<String, TlsStore> stores) {

    public static final TlsConfig EMPTY = new TlsConfig(null, null, null);

    public TlsConfig {
        certificates = certificates == null ? List.of() : List.copyOf(certificates);
        options = freeze(options);
        stores = freeze(stores);
        for (String store : stores.keySet()) {
            if (!store.equals(TlsCertificate.DEFAULT_STORE)) {
                throw new InvalidValueException("stores", "only the \"default\" store exists, not \"" + store + "\"");
            }
        }
    }

    public boolean isEmpty() {
        return certificates.isEmpty() && options.isEmpty() && stores.isEmpty();
    }

    private static <V> Map<String, V> freeze(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
