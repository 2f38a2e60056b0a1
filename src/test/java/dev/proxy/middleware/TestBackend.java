package dev.proxy.middleware;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A JDK HTTP server on 127.0.0.1 that records the requests it gets; answers "ok" unless given a handler. */
final class TestBackend implements AutoCloseable {

    /** What the backend saw of one request. */
    record Seen(String method, String uri, Headers headers) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    final List<Seen> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    private TestBackend(HttpHandler respond) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", ex -> {
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            requests.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().toString(), ex.getRequestHeaders()));
            respond.handle(ex);
        });
        server.start();
    }

    /** Answers 200 "ok" (text/plain). */
    static TestBackend ok() {
        return new TestBackend(ex -> send(ex, 200, "text/plain", "ok".getBytes(StandardCharsets.UTF_8)));
    }

    static TestBackend with(HttpHandler handler) {
        return new TestBackend(handler);
    }

    static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        if (contentType != null) {
            ex.getResponseHeaders().set("Content-Type", contentType);
        }
        boolean noBody = ex.getRequestMethod().equals("HEAD") || status == 204 || status == 304;
        ex.sendResponseHeaders(status, noBody ? -1 : body.length == 0 ? -1 : body.length);
        try (OutputStream os = ex.getResponseBody()) {
            if (!noBody) {
                os.write(body);
            }
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    Seen last() {
        return requests.get(requests.size() - 1);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
