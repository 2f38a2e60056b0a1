package dev.proxy.tls;

import dev.proxy.config.decode.Secret;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * A certificate chain with its private key, and the DNS names it is served for.
 *
 * @param key    the leaf's private key
 * @param chain  leaf first
 * @param names  lower-case DNS names of the leaf (its SANs; its CN when it has no DNS SAN), wildcards as
 *               {@code *.example.com}
 * @param origin where it came from, for logs: a file name, "inline PEM", {@code resolver le}, "generated"
 */
public record ServerCertificate(PrivateKey key, List<X509Certificate> chain, Set<String> names, String origin) {

    public ServerCertificate {
        chain = List.copyOf(chain);
        names = Set.copyOf(names);
    }

    /** Builds one from a chain and key, reading the names off the leaf. */
    public static ServerCertificate of(PrivateKey key, List<X509Certificate> chain, String origin) {
        return new ServerCertificate(key, chain, namesOf(chain.get(0)), origin);
    }

    /**
     * Reads a certificate and key (PEM files or inline PEM) and checks that the key belongs to the certificate, so a
     * mismatch is reported with the configuration instead of failing every handshake.
     *
     * @throws IllegalArgumentException naming the file (never the key content) and the problem
     */
    public static ServerCertificate load(String certFile, Secret keyFile) {
        List<X509Certificate> chain = Pem.certificates(certFile);
        PrivateKey key = Pem.privateKey(keyFile);
        if (!matches(key, chain.get(0))) {
            throw new IllegalArgumentException(Pem.describe(certFile) + ": the private key does not belong to the certificate");
        }
        return of(key, chain, Pem.describe(certFile));
    }

    public X509Certificate leaf() {
        return chain.get(0);
    }

    public Instant notAfter() {
        return leaf().getNotAfter().toInstant();
    }

    public Instant notBefore() {
        return leaf().getNotBefore().toInstant();
    }

    /** Whether this certificate is valid for every one of the names (exactly or through a wildcard). */
    public boolean covers(List<String> wanted) {
        for (String name : wanted) {
            String n = name.toLowerCase(Locale.ROOT);
            int dot = n.indexOf('.');
            if (!names.contains(n) && (dot < 0 || !names.contains("*" + n.substring(dot)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(PrivateKey key, X509Certificate leaf) {
        try {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC", "ECDSA" -> "SHA256withECDSA";
                case "Ed25519", "EdDSA" -> "Ed25519";
                default -> null;
            };
            if (algorithm == null) {
                return true; // unknown kinds are left to the handshake
            }
            byte[] probe = "proxy key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    static Set<String> namesOf(X509Certificate leaf) {
        Set<String> names = new LinkedHashSet<>();
        try {
            var sans = leaf.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    if (san.size() >= 2 && Integer.valueOf(2).equals(san.get(0))) { // dNSName
                        names.add(stripDot(san.get(1).toString().toLowerCase(Locale.ROOT)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no usable SANs: fall back to the CN below
        }
        if (names.isEmpty()) {
            try {
                for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
                    if (rdn.getType().equalsIgnoreCase("CN")) {
                        names.add(stripDot(rdn.getValue().toString().toLowerCase(Locale.ROOT)));
                    }
                }
            } catch (InvalidNameException e) {
                // no names at all: only usable as the default certificate
            }
        }
        return names;
    }

    private static String stripDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    @Override
    public String toString() {
        return "certificate " + names + " from " + origin + " (expires " + notAfter() + ")";
    }
}
