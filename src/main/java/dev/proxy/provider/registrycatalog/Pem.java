package dev.proxy.provider.registrycatalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Certificates and private keys in PEM, as Consul writes them. Consul's keys are SEC1 EC keys
 * ({@code BEGIN EC PRIVATE KEY}) or PKCS#1 RSA keys ({@code BEGIN RSA PRIVATE KEY}), which the JDK cannot read;
 * they are wrapped into PKCS#8 (a few bytes of DER around the same key) instead of pulling in BouncyCastle.
 */
final class Pem {

    private static final Pattern KEY = Pattern.compile(
            "-----BEGIN (EC |RSA )?PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END \\1?PRIVATE KEY-----");
    private static final byte[] OID_EC_PUBLIC_KEY = {0x06, 0x07, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01};
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0D, 0x06, 0x09, 0x2A, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00};
    private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

    private Pem() {
    }

    /** Every certificate in the text, in order. */
    static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
        List<X509Certificate> out = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
                .stream().map(c -> (X509Certificate) c).toList();
        if (out.isEmpty()) {
            throw new GeneralSecurityException("no certificate in the PEM text");
        }
        return out;
    }

    /** The first private key in the text: PKCS#8, SEC1 (EC) or PKCS#1 (RSA). */
    static PrivateKey privateKey(String pem) throws GeneralSecurityException {
        Matcher m = KEY.matcher(pem);
        if (!m.find()) {
            throw new GeneralSecurityException("no PRIVATE KEY block in the PEM text");
        }
        byte[] der = Base64.getMimeDecoder().decode(m.group(2));
        String kind = m.group(1) == null ? "" : m.group(1).trim();
        return switch (kind) {
            case "EC" -> KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(ecToPkcs8(der)));
            case "RSA" -> KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                    sequence(VERSION_0, RSA_ALGORITHM, tlv(0x04, der))));
            default -> pkcs8(der);
        };
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        GeneralSecurityException last = null;
        for (String algorithm : List.of("EC", "RSA", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * SEC1 {@code ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING, [0] parameters OID, [1] publicKey }}
     * to PKCS#8 {@code SEQUENCE { 0, SEQUENCE { id-ecPublicKey, curve OID }, OCTET STRING { the SEC1 key } }}.
     */
    static byte[] ecToPkcs8(byte[] sec1) throws GeneralSecurityException {
        byte[] curve = null;
        int[] outer = header(sec1, 0);
        if (sec1[0] != 0x30) {
            throw new GeneralSecurityException("EC PRIVATE KEY is not a DER sequence");
        }
        int pos = outer[0];
        int end = outer[0] + outer[1];
        while (pos < end) {
            int[] h = header(sec1, pos);
            if ((sec1[pos] & 0xff) == 0xA0) {
                int[] oid = header(sec1, h[0]);
                curve = java.util.Arrays.copyOfRange(sec1, h[0], oid[0] + oid[1]);
            }
            pos = h[0] + h[1];
        }
        if (curve == null) {
            throw new GeneralSecurityException("EC PRIVATE KEY names no curve");
        }
        return sequence(VERSION_0, sequence(OID_EC_PUBLIC_KEY, curve), tlv(0x04, sec1));
    }

    /** {start of content, content length} of the DER element at {@code pos}. */
    private static int[] header(byte[] der, int pos) throws GeneralSecurityException {
        if (pos + 1 >= der.length) {
            throw new GeneralSecurityException("truncated DER");
        }
        int len = der[pos + 1] & 0xff;
        int start = pos + 2;
        if (len > 0x80) {
            int n = len - 0x80;
            len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (der[start + i] & 0xff);
            }
            start += n;
        }
        if (len < 0 || start + len > der.length) {
            throw new GeneralSecurityException("truncated DER");
        }
        return new int[] {start, len};
    }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            content.writeBytes(p);
        }
        return tlv(0x30, content.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int len = content.length;
        if (len < 0x80) {
            out.write(len);
        } else if (len < 0x100) {
            out.write(0x81);
            out.write(len);
        } else if (len < 0x10000) {
            out.write(0x82);
            out.write(len >> 8);
            out.write(len);
        } else {
            out.write(0x83);
            out.write(len >> 16);
            out.write(len >> 8);
            out.write(len);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
