package dev.proxy.tls;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The certificates served, indexed by DNS name (Traefik's default store). Lookup of an SNI name: a certificate
 * naming it exactly, else one with the wildcard of its parent ({@code *.example.com} for {@code a.example.com}, one
 * label only, as TLS wildcards work), else the default certificate. Immutable.
 */
public final class CertificateStore {

    private final Map<String, ServerCertificate> byName = new HashMap<>();
    private final Supplier<ServerCertificate> defaultCertificate;
    private final List<ServerCertificate> all;

    /**
     * @param certificates in order of preference: when two cover the same name, the first one is served for it
     * @param defaultCertificate served when none matches
     */
    public CertificateStore(List<ServerCertificate> certificates, ServerCertificate defaultCertificate) {
        this(certificates, () -> defaultCertificate);
    }

    /**
     * @param certificates in order of preference: when two cover the same name, the first one is served for it
     * @param defaultCertificate served when none matches; asked for only then (the generated default certificate is
     *                           made on first use), and must give the same object every time
     */
    public CertificateStore(List<ServerCertificate> certificates, Supplier<ServerCertificate> defaultCertificate) {
        this.all = List.copyOf(certificates);
        this.defaultCertificate = defaultCertificate;
        for (ServerCertificate c : all) {
            for (String name : c.names()) {
                byName.putIfAbsent(name, c);
            }
        }
    }

    /** The certificate for an SNI name, or null when only the default certificate would do. */
    public ServerCertificate match(String sni) {
        if (sni == null || sni.isEmpty()) {
            return null;
        }
        String name = sni.toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        ServerCertificate exact = byName.get(name);
        if (exact != null) {
            return exact;
        }
        int dot = name.indexOf('.');
        return dot > 0 ? byName.get("*" + name.substring(dot)) : null;
    }

    public ServerCertificate defaultCertificate() {
        return defaultCertificate.get();
    }

    public List<ServerCertificate> certificates() {
        return all;
    }
}
