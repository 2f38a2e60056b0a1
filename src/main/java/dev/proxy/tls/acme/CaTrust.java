package dev.proxy.tls.acme;

import dev.proxy.config.install.AcmeConfig;
import dev.proxy.tls.Pem;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.shredzone.acme4j.connector.NetworkSettings;
import org.shredzone.acme4j.provider.AcmeProvider;
import org.shredzone.acme4j.provider.GenericAcmeProvider;

/**
 * How the connection to the CA is trusted: the JVM's trust store, plus {@code caCertificates} for a private CA
 * (or a test CA such as Pebble's). Verification is never turned off.
 */
final class CaTrust {

    private CaTrust() {
    }

    /** The acme4j provider for the resolver's {@code caServer}; null lets acme4j pick one for {@code acme://} URIs. */
    static AcmeProvider provider(AcmeConfig config) {
        if (!URI.create(config.caServer()).getScheme().equals("https")) {
            return null;
        }
        if (config.caCertificates().isEmpty()) {
            return new GenericAcmeProvider();
        }
        SSLContext context = sslContext(config);
        return new GenericAcmeProvider() {
            @Override
            public HttpClient createHttpClient(NetworkSettings settings) {
                HttpClient.Builder builder = HttpClient.newBuilder()
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .connectTimeout(settings.getTimeout())
                        .proxy(settings.getProxySelector())
                        .sslContext(context);
                if (settings.getAuthenticator() != null) {
                    builder.authenticator(settings.getAuthenticator());
                }
                return builder.build();
            }
        };
    }

    private static SSLContext sslContext(AcmeConfig config) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            TrustManagerFactory jvm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jvm.init((KeyStore) null);
            int i = 0;
            for (TrustManager tm : jvm.getTrustManagers()) {
                if (tm instanceof X509TrustManager x509) {
                    for (X509Certificate ca : x509.getAcceptedIssuers()) {
                        store.setCertificateEntry("jvm-" + i++, ca);
                    }
                }
            }
            for (String file : config.caCertificates()) {
                for (X509Certificate ca : Pem.certificates(file)) {
                    store.setCertificateEntry("extra-" + i++, ca);
                }
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot build the trust for " + config.caServer() + ": " + e.getMessage(), e);
        }
    }
}
