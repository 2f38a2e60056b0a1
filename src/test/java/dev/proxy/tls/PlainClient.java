package dev.proxy.tls;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One plain HTTP/1.1 {@code GET /} with a chosen Host header, over a raw socket. */
final class PlainClient {

    record Response(int status, String body) {
    }

    private PlainClient() {
    }

    static Response get(int port, String host) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Response(Integer.parseInt(raw.substring(9, 12)), raw.substring(raw.indexOf("\r\n\r\n") + 4));
        }
    }
}
