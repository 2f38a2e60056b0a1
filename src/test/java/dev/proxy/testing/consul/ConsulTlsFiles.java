package dev.proxy.testing.consul;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The PEM files of a TLS agent's test CA and client certificate, as made by {@code consul tls}.
 *
 * @param caCertificate     the CA that signed the agent's server certificate and the client certificate
 * @param clientCertificate the client certificate the HTTPS listener demands
 * @param clientKey         its EC key as Consul writes it (SEC1, {@code BEGIN EC PRIVATE KEY})
 * @param clientKeyPkcs8    the same key as PKCS#8 ({@code BEGIN PRIVATE KEY}), the form the JDK reads
 */
public record ConsulTlsFiles(Path caCertificate, Path clientCertificate, Path clientKey, Path clientKeyPkcs8) {

    /**
     * An SSL context that trusts the test CA and, if asked, presents the client certificate. Without
     * the client certificate, the agent's HTTPS listener refuses the handshake.
     */
    public SSLContext sslContext(boolean presentClientCertificate) {
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            KeyStore trusted = emptyKeyStore();
            trusted.setCertificateEntry("consul-test-ca", read(x509, caCertificate)[0]);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);

            KeyManager[] keyManagers = null;
            if (presentClientCertificate) {
                KeyStore identity = emptyKeyStore();
                identity.setKeyEntry("consul-test-client", privateKey(), new char[0], read(x509, clientCertificate));
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(identity, new char[0]);
                keyManagers = keys.getKeyManagers();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build an SSL context from " + this, e);
        }
    }

    private PrivateKey privateKey() throws IOException, GeneralSecurityException {
        String base64 = Files.readString(clientKeyPkcs8).replaceAll("-----[A-Z ]+-----", "");
        byte[] der = Base64.getMimeDecoder().decode(base64);
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    private static Certificate[] read(CertificateFactory x509, Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return x509.generateCertificates(in).toArray(Certificate[]::new);
        }
    }

    private static KeyStore emptyKeyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }
}
