package dev.proxy.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A test HTTPS client over a raw {@link SSLSocket}, so that the SNI name, the Host header, the protocol versions
 * and the client certificate can each be set on their own. It accepts any server certificate and reports which one
 * it was given. Later connections of one client may resume its earlier sessions.
 */
final class TlsClient {

    private String sni;
    private String host;
    private String[] protocols = {"TLSv1.3", "TLSv1.2"};
    private String[] alpn;
    private KeyManager[] keyManagers;
    /** One per client, so that later connections can resume the session of earlier ones. */
    private SSLContext context;

    /** What a request saw. */
    record Response(X509Certificate certificate, String protocol, String alpn, int status, String body) {
    }

    static TlsClient sni(String name) {
        TlsClient c = new TlsClient();
        c.sni = name;
        c.host = name;
        return c;
    }

    TlsClient host(String hostHeader) {
        this.host = hostHeader;
        return this;
    }

    TlsClient protocols(String... versions) {
        this.protocols = versions;
        return this;
    }

    TlsClient alpn(String... protocols) {
        this.alpn = protocols;
        return this;
    }

    TlsClient clientCertificate(KeyManager[] managers) {
        this.keyManagers = managers;
        return this;
    }

    /** Handshakes and returns the certificate served (the connection is closed again). */
    X509Certificate certificate(int port) throws IOException {
        try (SSLSocket socket = open(port)) {
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    /** Handshakes and returns the TLS session's id (the same id again means the session was resumed). */
    String sessionId(int port) throws IOException {
        try (SSLSocket socket = open(port)) {
            return java.util.HexFormat.of().formatHex(socket.getSession().getId());
        }
    }

    /** Handshakes and returns the whole chain served, leaf first. */
    List<X509Certificate> chain(int port) throws IOException {
        try (SSLSocket socket = open(port)) {
            return java.util.Arrays.stream(socket.getSession().getPeerCertificates())
                    .map(c -> (X509Certificate) c).toList();
        }
    }

    /** Sends {@code GET path} with {@code Connection: close} and reads the whole response. */
    Response get(int port, String path) throws IOException {
        try (SSLSocket socket = open(port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String raw = readAll(socket.getInputStream());
            int headEnd = raw.indexOf("\r\n\r\n");
            if (!raw.startsWith("HTTP/1.1 ") || headEnd < 0) {
                throw new IOException("not an HTTP response: " + raw);
            }
            return new Response((X509Certificate) socket.getSession().getPeerCertificates()[0],
                    socket.getSession().getProtocol(), socket.getApplicationProtocol(),
                    Integer.parseInt(raw.substring(9, 12)), raw.substring(headEnd + 4));
        }
    }

    /** Handshakes and hands the socket over (the caller speaks on it and closes it). */
    SSLSocket connect(int port) throws IOException {
        return open(port);
    }

    private SSLSocket open(int port) throws IOException {
        if (context == null) {
            try {
                context = SSLContext.getInstance("TLS");
                // Trusts every server: these tests look at which certificate was served, not at its chain.
                context.init(keyManagers, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), new SecureRandom());
            } catch (GeneralSecurityException e) {
                throw new IOException(e);
            }
        }
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        plain.setSoTimeout(10_000);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setProtocols(protocols);
        parameters.setServerNames(sni == null ? List.of() : List.of(new SNIHostName(sni)));
        if (alpn != null) {
            parameters.setApplicationProtocols(alpn);
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        in.transferTo(buffer);
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
