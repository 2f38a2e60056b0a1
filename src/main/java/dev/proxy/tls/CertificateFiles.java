package dev.proxy.tls;

import dev.proxy.config.dynamic.StoreCertificate;
import dev.proxy.config.dynamic.TlsCertificate;
import dev.proxy.config.dynamic.TlsConfig;
import dev.proxy.config.dynamic.TlsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The certificate and key files a TLS configuration names, with their modification time and size when they were
 * read, so that a certificate renewed in place (certbot, a mounted secret) is served without a configuration change.
 * Checking is a few {@code stat} calls, done off the request path.
 */
public final class CertificateFiles {

    private final Map<Path, String> stamps;

    private CertificateFiles(Map<Path, String> stamps) {
        this.stamps = stamps;
    }

    /** The files of the configuration as they are now (inline PEM values have no file). */
    public static CertificateFiles of(TlsConfig tls) {
        List<String> values = new ArrayList<>();
        for (TlsCertificate c : tls.certificates()) {
            values.add(c.certFile());
            values.add(c.keyFile().reveal());
        }
        TlsStore store = tls.stores().get(TlsCertificate.DEFAULT_STORE);
        StoreCertificate d = store == null ? null : store.defaultCertificate();
        if (d != null) {
            values.add(d.certFile());
            values.add(d.keyFile().reveal());
        }
        Map<Path, String> stamps = new HashMap<>();
        for (String v : values) {
            if (!Pem.isInline(v)) {
                Path p = Path.of(v);
                stamps.put(p, stamp(p));
            }
        }
        return new CertificateFiles(stamps);
    }

    /** Whether any file was modified, replaced or removed since {@link #of}. */
    public boolean changed() {
        for (Map.Entry<Path, String> e : stamps.entrySet()) {
            if (!Objects.equals(stamp(e.getKey()), e.getValue())) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return stamps.isEmpty();
    }

    private static String stamp(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return a.lastModifiedTime().toMillis() + "/" + a.size() + "/" + a.fileKey();
        } catch (IOException | RuntimeException e) {
            return "missing";
        }
    }
}
