package dev.proxy.server.forward;

import io.micronaut.core.annotation.Nullable;
import io.netty.handler.ssl.SslContext;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TLS settings of particular services' backend connections, set by the provider that owns them: the
 * {@code registryCatalog} provider puts a client certificate (its Connect leaf), a private trust (the Connect CA)
 * and an identity check (the service's SPIFFE ID) here for each Connect service. Other services use the default
 * TLS client.
 *
 * <p>Keyed by the qualified service name ({@code web@registrycatalog}). A service's targets carry the key when it
 * is compiled, and the context is looked up when a connection is dialled, so that a renewed leaf certificate is
 * used by the next connection without recompiling the routes. Connections made with different contexts are pooled
 * apart.
 */
@Singleton
public class BackendTls {

    private final Map<String, SslContext> contexts = new ConcurrentHashMap<>();

    /** Sets (or replaces) the TLS context of a service's backend connections. */
    public void put(String qualifiedService, SslContext context) {
        contexts.put(qualifiedService, context);
    }

    /** Forgets every service of {@code provider} that is not in {@code keep}. */
    public void retain(String provider, java.util.Set<String> keep) {
        contexts.keySet().removeIf(name -> name.endsWith("@" + provider) && !keep.contains(name));
    }

    public boolean has(String qualifiedService) {
        return contexts.containsKey(qualifiedService);
    }

    /** The service's context, or null when it has none (any more). */
    public @Nullable SslContext get(String qualifiedService) {
        return contexts.get(qualifiedService);
    }
}
