package dev.proxy.config.dynamic;

/**
 * {@code tls.options.<name>.clientAuth.clientAuthType}, spelled as in Traefik (and Go's {@code crypto/tls}); the
 * constants keep that spelling because the decoder matches configuration values against them.
 */
public enum ClientAuthType {
    /** No client certificate is asked for. */
    NoClientCert(false, false),
    /** A certificate is asked for; any (or none) is accepted, unverified. */
    RequestClientCert(false, false),
    /** A certificate is required; it is not verified. */
    RequireAnyClientCert(true, false),
    /** A certificate is optional; when given, it must be signed by one of {@code caFiles}. */
    VerifyClientCertIfGiven(false, true),
    /** A certificate signed by one of {@code caFiles} is required (mTLS). */
    RequireAndVerifyClientCert(true, true);

    private final boolean required;
    private final boolean verified;

    ClientAuthType(boolean required, boolean verified) {
        this.required = required;
        this.verified = verified;
    }

    public boolean required() {
        return required;
    }

    /** Whether the certificate is checked against {@code caFiles} (which must then be given). */
    public boolean verified() {
        return verified;
    }
}
