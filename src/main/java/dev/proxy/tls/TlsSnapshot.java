package dev.proxy.tls;

import dev.proxy.config.dynamic.TlsOptions;
import io.netty.handler.ssl.SslContext;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * What TLS connections are negotiated with at one moment: the certificates, the valid TLS options, and which options
 * each SNI name gets on each entry point. Immutable apart from a cache of SSL contexts; published with the routing
 * snapshot, so a new certificate or option applies to the next handshake (hot reload) while established
 * connections go on with what they negotiated.
 */
public final class TlsSnapshot {

    private final CertificateStore certificates;
    private final Map<String, CompiledTlsOptions> options;
    private final Map<String, Map<String, String>> optionsByHost;
    private final Map<ContextKey, SslContext> contexts = new ConcurrentHashMap<>();

    /** What a handshake is answered with: the context, and the name of the options it was built from. */
    public record Selection(SslContext context, CompiledTlsOptions options) {
    }

    /** By identity: both come from this snapshot, and hashing a certificate's encoding per handshake is waste. */
    private record ContextKey(CompiledTlsOptions options, ServerCertificate certificate) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ContextKey k && k.options == options && k.certificate == certificate;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(options) + System.identityHashCode(certificate);
        }
    }

    /**
     * @param certificates  the store (with its default certificate)
     * @param options       valid options by name; must hold {@code default}
     * @param optionsByHost per entry point: lower-case host name → options name, from the TLS routers' Host rules
     * @param previous      the snapshot this one replaces (or null): its contexts for unchanged options and
     *                      certificates are kept, and with them the sessions clients resume
     */
    public TlsSnapshot(CertificateStore certificates, Map<String, CompiledTlsOptions> options,
                       Map<String, Map<String, String>> optionsByHost, TlsSnapshot previous) {
        if (!options.containsKey(TlsOptions.DEFAULT_NAME)) {
            throw new IllegalArgumentException("no default TLS options");
        }
        this.certificates = certificates;
        this.options = Map.copyOf(options);
        this.optionsByHost = Map.copyOf(optionsByHost);
        if (previous != null) {
            keepContexts(previous);
        }
    }

    private void keepContexts(TlsSnapshot previous) {
        Map<ServerCertificate, ServerCertificate> current = new HashMap<>();
        certificates.certificates().forEach(c -> current.putIfAbsent(c, c));
        previous.contexts.forEach((key, context) -> {
            ServerCertificate same = current.get(key.certificate());
            if (same == null) {
                // Asked for only here: the generated default certificate is made when a handshake first needs it.
                ServerCertificate byDefault = certificates.defaultCertificate();
                same = byDefault.equals(key.certificate()) ? byDefault : null;
            }
            if (same != null && options.get(key.options().name()) == key.options()) {
                contexts.put(new ContextKey(key.options(), same), context);
            }
        });
    }

    /**
     * The context for a ClientHello on an entry point: the options its SNI name maps to (else {@code default}) and
     * the certificate for the name (else the default certificate, unless the options are {@code sniStrict}).
     *
     * @param sni the SNI name, or null when the client sent none
     * @return null when the handshake must be refused (sniStrict and no certificate for the name)
     */
    public Selection select(String entryPoint, String sni) throws SSLException {
        CompiledTlsOptions chosen = options.get(optionsName(entryPoint, sni));
        ServerCertificate certificate = certificates.match(sni);
        if (certificate == null) {
            if (chosen.sniStrict()) {
                return null;
            }
            certificate = certificates.defaultCertificate();
        }
        ContextKey key = new ContextKey(chosen, certificate);
        SslContext context = contexts.get(key);
        if (context == null) {
            context = chosen.newContext(certificate);
            SslContext raced = contexts.putIfAbsent(key, context);
            context = raced == null ? context : raced;
        }
        return new Selection(context, chosen);
    }

    /**
     * The options name for a host on an entry point: the options of the TLS routers whose Host rule names it, else
     * {@code default}. The SNI name and the Host header are both looked up here (see the 421 check).
     */
    public String optionsName(String entryPoint, String host) {
        if (host == null || host.isEmpty()) {
            return TlsOptions.DEFAULT_NAME;
        }
        Map<String, String> hosts = optionsByHost.get(entryPoint);
        if (hosts == null) {
            return TlsOptions.DEFAULT_NAME;
        }
        String name = host.toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return hosts.getOrDefault(name, TlsOptions.DEFAULT_NAME);
    }

    public CertificateStore certificates() {
        return certificates;
    }

    public Map<String, CompiledTlsOptions> options() {
        return options;
    }
}
