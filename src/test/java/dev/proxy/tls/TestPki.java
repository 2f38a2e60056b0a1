package dev.proxy.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.net.Socket;
import java.security.Principal;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throw-away certificate authority for tests: EC P-256 keys, certificates made in memory. */
final class TestPki {

    private final KeyPair caKeys;
    private final X509Certificate ca;

    /** A certificate and its key. */
    record Issued(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {

        String certificatePem() {
            return Pem.encode(List.of(certificate));
        }

        String keyPem() {
            return Pem.encode(key);
        }

        /** Writes {@code <name>.crt} and {@code <name>.key} into the directory and returns the certificate path. */
        Path write(Path dir, String name) throws IOException {
            Files.writeString(dir.resolve(name + ".key"), keyPem());
            return Files.writeString(dir.resolve(name + ".crt"), certificatePem());
        }

        /**
         * Presents this certificate to every server, whichever CAs the server says it accepts (the JDK's own key
         * manager would send nothing when the issuer is not among them, hiding what the server does with a
         * certificate it does not trust).
         */
        KeyManager[] keyManagers() {
            X509Certificate[] chain = {certificate, issuer};
            return new KeyManager[]{new X509ExtendedKeyManager() {
                @Override
                public String[] getClientAliases(String keyType, Principal[] issuers) {
                    return new String[]{"me"};
                }

                @Override
                public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
                    return "me";
                }

                @Override
                public String[] getServerAliases(String keyType, Principal[] issuers) {
                    return null;
                }

                @Override
                public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
                    return null;
                }

                @Override
                public X509Certificate[] getCertificateChain(String alias) {
                    return chain;
                }

                @Override
                public PrivateKey getPrivateKey(String alias) {
                    return key;
                }
            }};
        }
    }

    TestPki(String name) throws Exception {
        caKeys = newKeys();
        X500Name subject = new X500Name("CN=" + name);
        X509v3CertificateBuilder b = builder(subject, subject, caKeys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        ca = sign(b, caKeys.getPrivate());
    }

    X509Certificate ca() {
        return ca;
    }

    String caPem() {
        return Pem.encode(List.of(ca));
    }

    /** A server certificate for the DNS names or IPv4 addresses (the first is also the CN). */
    Issued server(String... dnsNames) throws Exception {
        return issue(dnsNames[0], List.of(dnsNames), KeyPurposeId.id_kp_serverAuth);
    }

    /** A client certificate for mTLS. */
    Issued client(String commonName) throws Exception {
        return issue(commonName, List.of(), KeyPurposeId.id_kp_clientAuth);
    }

    private Issued issue(String commonName, List<String> dnsNames, KeyPurposeId purpose) throws Exception {
        KeyPair keys = newKeys();
        X509v3CertificateBuilder b = builder(new X500Name("CN=" + ca.getSubjectX500Principal().getName().substring(3)),
                new X500Name("CN=" + commonName), keys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
        if (!dnsNames.isEmpty()) {
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
                    dnsNames.stream().map(n -> new GeneralName(n.matches("[0-9.]+") ? GeneralName.iPAddress
                            : GeneralName.dNSName, n)).toArray(GeneralName[]::new)));
        }
        return new Issued(keys.getPrivate(), sign(b, caKeys.getPrivate()), ca);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, new SecureRandom()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(30))), subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
    }

    private static KeyPair newKeys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }
}
