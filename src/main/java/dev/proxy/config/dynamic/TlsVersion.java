package dev.proxy.config.dynamic;

/**
 * A TLS protocol version, spelled as in Traefik's {@code minVersion}/{@code maxVersion} ({@code VersionTLS12}).
 * The constants keep that spelling because the decoder matches configuration values against them.
 */
public enum TlsVersion {
    VersionTLS10("TLSv1", 10),
    VersionTLS11("TLSv1.1", 11),
    VersionTLS12("TLSv1.2", 12),
    VersionTLS13("TLSv1.3", 13);

    private final String jdkName;
    private final int order;

    TlsVersion(String jdkName, int order) {
        this.jdkName = jdkName;
        this.order = order;
    }

    /** The protocol name the JDK's SSL engine uses ({@code TLSv1.2}). */
    public String jdkName() {
        return jdkName;
    }

    /**
     * TLS 1.0 and 1.1 are deprecated (RFC 8996) and disabled in the JDK's {@code jdk.tls.disabledAlgorithms};
     * configuring them is refused rather than silently ignored.
     */
    public boolean deprecated() {
        return order < 12;
    }

    public boolean after(TlsVersion other) {
        return order > other.order;
    }
}
