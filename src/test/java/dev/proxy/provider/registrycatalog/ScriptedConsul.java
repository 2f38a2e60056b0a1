package dev.proxy.provider.registrycatalog;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback stand-in for a Consul agent answering scripted, possibly broken, bodies and {@code X-Consul-Index}
 * headers: what a real agent never sends (truncated JSON, uint64 indexes, an index going backwards).
 *
 * <p>Reads ({@code /v1/catalog/services}, {@code /v1/health/service/<name>}) answer {@link #answers} by path, with
 * {@link #index}. A blocking query on {@code /v1/catalog/services} ({@code index=} in the query) takes the next of
 * {@link #watchIndexes} as its index and answers the same catalog; when none is queued it holds the request until
 * {@link #close()}, like an agent with nothing new. {@code /v1/health/state/any} answers no checks and blocks the
 * same way. Every request target is recorded in {@link #targets}.
 */
final class ScriptedConsul implements AutoCloseable {

    final Map<String, Answer> answers = new ConcurrentHashMap<>();
    final BlockingQueue<String> watchIndexes = new LinkedBlockingQueue<>();
    final List<String> targets = new CopyOnWriteArrayList<>();
    volatile String index = "7";
    private final CountDownLatch closed = new CountDownLatch(1);
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** One scripted answer: status and body. */
    record Answer(int status, String body) {
        static Answer ok(String body) {
            return new Answer(200, body);
        }
    }

    ScriptedConsul() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** The catalog answer listing {@code services} (no tags) and each one's health entries at 127.0.0.1:port. */
    void catalog(Map<String, Integer> services) {
        StringBuilder catalog = new StringBuilder("{");
        services.forEach((name, port) -> {
            catalog.append(catalog.length() > 1 ? ", " : "").append('"').append(name).append("\": []");
            answers.put("/v1/health/service/" + name, Answer.ok("""
                    [{"Node": {"Node": "n1", "Address": "127.0.0.1", "Datacenter": "dc1"},
                      "Service": {"ID": "%s-1", "Service": "%s", "Tags": [], "Address": "", "Port": %d},
                      "Checks": [{"CheckID": "serfHealth", "Status": "passing"}]}]""".formatted(name, name, port)));
        });
        answers.put("/v1/catalog/services", Answer.ok(catalog.append('}').toString()));
    }

    private void answer(HttpExchange ex) throws IOException {
        String target = ex.getRequestURI().toString();
        targets.add(target);
        String path = ex.getRequestURI().getPath();
        boolean blocking = target.contains("index=");
        String sentIndex = index;
        Answer answer;
        try {
            if (path.equals("/v1/health/state/any")) {
                if (blocking) {
                    closed.await(1, TimeUnit.MINUTES);
                }
                answer = Answer.ok("[]");
                sentIndex = "1";
            } else {
                if (blocking && path.equals("/v1/catalog/services")) {
                    String next = watchIndexes.poll(1, TimeUnit.MINUTES);
                    if (next == null || closed.getCount() == 0) {
                        ex.close();
                        return;
                    }
                    sentIndex = next;
                }
                answer = answers.getOrDefault(path, new Answer(404, "no such path"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.close();
            return;
        }
        byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        if (sentIndex != null) {
            ex.getResponseHeaders().add("X-Consul-Index", sentIndex);
        }
        ex.sendResponseHeaders(answer.status(), out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        watchIndexes.add("closing");
        server.stop(0);
        threads.shutdownNow();
    }
}
