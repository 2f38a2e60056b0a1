package dev.proxy.server;

/**
 * What a client connection negotiated in its TLS handshake, known to every request on it.
 *
 * @param sni      the SNI name the client sent (lower case), or empty
 * @param options  the name of the TLS options the handshake was answered with
 * @param protocol the ALPN protocol agreed ({@code http/1.1}), or empty when the client offered none
 */
public record ConnectionTls(String sni, String options, String protocol) {
}
