package dev.proxy.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.Supplier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Generates the certificate served when no configured one matches (Traefik's "TRAEFIK DEFAULT CERT"): self-signed,
 * made at start with a fresh P-256 key (fast to make, accepted by every client), valid for a year, for the name
 * {@value #COMMON_NAME}. No client trusts it; it only lets a handshake complete so that the client sees a
 * certificate error instead of a reset, and it reveals nothing about the configured names.
 */
public final class SelfSignedCertificate {

    public static final String COMMON_NAME = "PROXY DEFAULT CERT";

    private SelfSignedCertificate() {
    }

    public static ServerCertificate generate() {
        return generate(COMMON_NAME, List.of(), "generated");
    }

    /** The default certificate, generated when first asked for or {@link Lazy#prepare() prepared}. */
    public static Lazy onFirstUse() {
        return new Lazy();
    }

    /** Generated once, then always the same object; thread-safe. */
    public static final class Lazy implements Supplier<ServerCertificate> {

        private ServerCertificate made;
        private boolean prepared;

        private Lazy() {
        }

        @Override
        public synchronized ServerCertificate get() {
            if (made == null) {
                made = generate();
            }
            return made;
        }

        /**
         * Generates it on a background thread, so that a start does not wait for it and the first handshake that
         * needs it (which would otherwise pay for it, Bouncy Castle's first use included) usually finds it made.
         * Only the first call does anything.
         */
        public synchronized void prepare() {
            if (prepared || made != null) {
                return;
            }
            prepared = true;
            Thread thread = new Thread(this::get, "proxy-default-certificate");
            thread.setDaemon(true);
            thread.setPriority(Thread.MIN_PRIORITY);
            thread.start();
        }
    }

    /**
     * @param commonName the subject CN
     * @param dnsNames   SAN DNS names (none for the default certificate)
     * @param origin     for logs
     */
    public static ServerCertificate generate(String commonName, List<String> dnsNames, String origin) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=" + commonName);
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                    new BigInteger(127, new SecureRandom()), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(365))), subject, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            if (!dnsNames.isEmpty()) {
                GeneralName[] names = dnsNames.stream().map(n -> new GeneralName(GeneralName.dNSName, n))
                        .toArray(GeneralName[]::new);
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            }
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return ServerCertificate.of(keys.getPrivate(), List.of(certificate), origin);
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate", e);
        }
    }
}
