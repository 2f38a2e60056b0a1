package dev.proxy.config.install;

/**
 * {@code certificatesResolvers.<name>.acme.tlsChallenge}: answer ACME TLS-ALPN-01 challenges on every entry point
 * that accepts TLS (the CA connects to port 443). Present ({@code tlsChallenge: {}}) means enabled.
 */
public record TlsChallengeConfig() {
}
