package dev.proxy.config.install;

/** {@code certificatesResolvers.<name>.acme.keyType}: the key of the certificates obtained (Traefik's names). */
public enum AcmeKeyType {
    EC256, EC384, RSA2048, RSA4096, RSA8192
}
