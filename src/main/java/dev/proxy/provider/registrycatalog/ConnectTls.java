package dev.proxy.provider.registrycatalog;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The proxy's Connect identity (CA roots, its leaf certificate and key) and the TLS client contexts made from it: one
 * per SPIFFE ID, because each Connect service must present its own. A context trusts only the Connect CA roots,
 * presents the leaf, and accepts a server only if its certificate carries the expected SPIFFE ID as a URI SAN
 * (Connect certificates name no host, so host name verification does not apply; the SPIFFE ID is the identity).
 *
 * @param trustDomain the CA's trust domain, e.g. {@code 11111111-2222-….consul}
 */
record ConnectTls(String trustDomain, List<X509Certificate> roots, List<X509Certificate> leafChain, PrivateKey key,
                  Map<String, SslContext> contexts) {

    ConnectTls {
        roots = List.copyOf(roots);
        leafChain = List.copyOf(leafChain);
    }

    /** @throws GeneralSecurityException when the PEM texts do not hold a CA, a certificate and a key */
    static ConnectTls of(CatalogClient.CaRoots roots, CatalogClient.Leaf leaf) throws GeneralSecurityException {
        if (roots.rootCertificates().isEmpty() || roots.trustDomain().isEmpty()) {
            throw new GeneralSecurityException("the Connect CA has no roots yet");
        }
        List<X509Certificate> rootCerts = new java.util.ArrayList<>();
        for (String pem : roots.rootCertificates()) {
            rootCerts.addAll(Pem.certificates(pem));
        }
        return new ConnectTls(roots.trustDomain(), rootCerts, Pem.certificates(leaf.certificatePem()),
                Pem.privateKey(leaf.privateKeyPem()), new ConcurrentHashMap<>());
    }

    /** Same CA and leaf: the contexts made so far stay valid. */
    boolean sameMaterial(ConnectTls other) {
        return trustDomain.equals(other.trustDomain) && roots.equals(other.roots) && leafChain.equals(other.leafChain);
    }

    /** The client context for servers that must present {@code spiffeId} (made once per ID). */
    SslContext context(String spiffeId) {
        return contexts.computeIfAbsent(spiffeId, id -> {
            try {
                return SslContextBuilder.forClient()
                        .keyManager(key, leafChain)
                        .trustManager(new SpiffeTrustManager(trustManager(roots), id))
                        .endpointIdentificationAlgorithm(null)
                        .build();
            } catch (SSLException | GeneralSecurityException e) {
                throw new IllegalStateException("cannot build the Connect TLS client for " + id + ": " + e.getMessage(), e);
            }
        });
    }

    private static X509TrustManager trustManager(List<X509Certificate> roots) throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        for (int i = 0; i < roots.size(); i++) {
            store.setCertificateEntry("connect-root-" + i, roots.get(i));
        }
        TrustManagerFactory f = TrustManagerFactory.getInstance("PKIX");
        f.init(store);
        for (var tm : f.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    /** Checks the chain against the Connect roots, then the server's SPIFFE ID. */
    static final class SpiffeTrustManager extends X509ExtendedTrustManager {
        private final X509TrustManager chain;
        private final String expected;

        SpiffeTrustManager(X509TrustManager chain, String expected) {
            this.chain = chain;
            this.expected = expected;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
            chain.checkServerTrusted(certs, authType);
            List<String> uris = uris(certs[0]);
            if (!uris.contains(expected)) {
                throw new CertificateException("Connect server presents " + uris + ", expected " + expected);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket) throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine) throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType) throws CertificateException {
            throw new CertificateException("a client-side trust manager");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket) throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine) throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return chain.getAcceptedIssuers();
        }

        static List<String> uris(X509Certificate cert) throws CertificateParsingException {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans == null) {
                return List.of();
            }
            return sans.stream().filter(s -> Integer.valueOf(6).equals(s.get(0))).map(s -> String.valueOf(s.get(1))).toList();
        }
    }
}
