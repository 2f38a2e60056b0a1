package dev.proxy.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A backend on 127.0.0.1 (random port) that records every request it receives, byte-exact, over raw sockets: the
 * request line, the headers as sent (name case, order, duplicates) and the body (Content-Length or chunked). A
 * request whose body never completes (the proxy aborted it) is recorded in {@link #aborted()}, not in
 * {@link #received()}. Each request is answered by the responder (default: 200 with {@code seen <target>}), whose
 * raw bytes are written as they are — so tests can send malformed responses. Connections are counted, so tests can
 * tell whether the proxy reused one.
 */
public final class RecordingBackend implements AutoCloseable {

    /** One request as the backend read it. */
    public record Received(String method, String target, String version, List<String[]> headers, byte[] body,
                           int connection) {

        /** The values of a header (case-insensitive name), in order. */
        public List<String> header(String name) {
            return headers.stream().filter(h -> h[0].equalsIgnoreCase(name)).map(h -> h[1]).toList();
        }

        public String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private final ServerSocket server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<String> aborted = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile Function<Received, String> responder = r -> ok("seen " + r.target());

    public RecordingBackend() {
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread accept = new Thread(this::acceptLoop, "recording-backend-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /** A 200 response with a text body and Content-Length. */
    public static String ok(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Backend: recording\r\nContent-Length: "
                + body.getBytes(StandardCharsets.ISO_8859_1).length + "\r\n\r\n" + body;
    }

    /** Answers every request with these raw bytes (ISO-8859-1), whatever they are. */
    public RecordingBackend respondWith(Function<Received, String> rawResponse) {
        this.responder = rawResponse;
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Completely received requests, in arrival order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Targets of requests whose head arrived but whose body never completed. */
    public List<String> aborted() {
        return List.copyOf(aborted);
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                int id = connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s, id), "recording-backend-conn-" + id);
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s, int connection) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            while (true) {
                String requestLine = line(in);
                if (requestLine == null) {
                    return;
                }
                String[] parts = requestLine.split(" ", 3);
                List<String[]> headers = new ArrayList<>();
                String h;
                while ((h = line(in)) != null && !h.isEmpty()) {
                    int colon = h.indexOf(':');
                    headers.add(new String[] {h.substring(0, Math.max(0, colon)), h.substring(colon + 1).trim()});
                }
                if (h == null) {
                    aborted.add(parts.length > 1 ? parts[1] : requestLine);
                    return;
                }
                byte[] body = body(in, headers);
                if (body == null) {
                    aborted.add(parts[1]);
                    return;
                }
                Received r = new Received(parts[0], parts.length > 1 ? parts[1] : "", parts.length > 2 ? parts[2] : "",
                        List.copyOf(headers), body, connection);
                received.add(r);
                out.write(responder.apply(r).getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (headers.stream().anyMatch(x -> x[0].equalsIgnoreCase("Connection")
                        && x[1].toLowerCase(Locale.ROOT).contains("close"))) {
                    return;
                }
            }
        } catch (IOException e) {
            // the proxy closed the connection
        }
    }

    /** The body per Content-Length or chunked; null when the connection ended first. */
    private static byte[] body(InputStream in, List<String[]> headers) throws IOException {
        String te = headers.stream().filter(x -> x[0].equalsIgnoreCase("Transfer-Encoding")).map(x -> x[1])
                .findFirst().orElse("");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (te.equalsIgnoreCase("chunked")) {
            while (true) {
                String size = line(in);
                if (size == null) {
                    return null;
                }
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (n == 0) {
                    String trailer;
                    while ((trailer = line(in)) != null && !trailer.isEmpty()) {
                        // trailers ignored
                    }
                    return trailer == null ? null : body.toByteArray();
                }
                byte[] chunk = in.readNBytes(n);
                if (chunk.length < n || line(in) == null) {
                    return null;
                }
                body.write(chunk);
            }
        }
        String cl = headers.stream().filter(x -> x[0].equalsIgnoreCase("Content-Length")).map(x -> x[1])
                .findFirst().orElse("0");
        int n = Integer.parseInt(cl);
        byte[] b = in.readNBytes(n);
        return b.length < n ? null : b;
    }

    /** A CRLF-terminated line (the proxy always sends CRLF), or null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int len = b.length();
                return len > 0 && b.charAt(len - 1) == '\r' ? b.substring(0, len - 1) : b.toString();
            }
            b.append((char) c);
        }
        return null;
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
