package dev.proxy.tls;

import dev.proxy.config.decode.Secret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Reads PEM certificates and private keys given either as a file path or as the PEM text itself (Traefik accepts
 * both in {@code certFile}/{@code keyFile}). Messages name the file, or say "inline PEM", never the content.
 */
public final class Pem {

    private Pem() {
    }

    /** Whether the value is PEM content rather than a path. */
    static boolean isInline(String fileOrPem) {
        return fileOrPem.contains("-----BEGIN ");
    }

    /** How a value is named in messages: its path, or "inline PEM" (a key's content must never be printed). */
    static String describe(String fileOrPem) {
        return isInline(fileOrPem) ? "inline PEM" : fileOrPem;
    }

    /** The certificates of a PEM bundle, in order. */
    public static List<X509Certificate> certificates(String fileOrPem) {
        String pem = read(fileOrPem);
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            List<X509Certificate> out = new ArrayList<>();
            for (var c : x509.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IllegalArgumentException(describe(fileOrPem) + ": no certificate in it");
            }
            return List.copyOf(out);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(describe(fileOrPem) + ": not a PEM certificate: " + e.getMessage());
        }
    }

    /** The first private key of a PEM file or text: PKCS#8, PKCS#1 RSA or SEC1 EC. */
    public static PrivateKey privateKey(Secret fileOrPem) {
        String source = fileOrPem.reveal();
        String pem = read(source);
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The parser's message may quote the content; say only what and where.
            throw new IllegalArgumentException(describe(source) + ": not a readable PEM private key ("
                    + e.getClass().getSimpleName() + ")");
        }
        throw new IllegalArgumentException(describe(source) + ": no unencrypted private key in it");
    }

    /** Encodes certificates as a PEM bundle. */
    public static String encode(List<X509Certificate> chain) {
        StringBuilder sb = new StringBuilder();
        java.util.Base64.Encoder b64 = java.util.Base64.getMimeEncoder(64, new byte[]{'\n'});
        for (X509Certificate c : chain) {
            try {
                sb.append("-----BEGIN CERTIFICATE-----\n").append(b64.encodeToString(c.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            } catch (java.security.cert.CertificateEncodingException e) {
                throw new IllegalStateException(e);
            }
        }
        return sb.toString();
    }

    /** Encodes a private key as PKCS#8 PEM. */
    public static String encode(PrivateKey key) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    private static String read(String fileOrPem) {
        if (isInline(fileOrPem)) {
            return fileOrPem;
        }
        try {
            return Files.readString(Path.of(fileOrPem), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(fileOrPem + ": cannot read: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
    }
}
