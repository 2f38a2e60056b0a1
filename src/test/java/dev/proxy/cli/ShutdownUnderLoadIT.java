package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM while 32 keep-alive clients keep the packaged program busy in front of a backend that takes 200 ms per
 * request (so the drain lasts long enough to watch ping through it).
 *
 * <p>What "no failed request" means here, precisely:
 * <ul>
 *   <li>Every response a client gets is a 200 — no 502, no 503, no truncated body — before, during and after the
 *       drain.</li>
 *   <li>A request that reached the backend got its 200 at the client: the proxy never drops one it has taken on,
 *       including those in flight when the drain begins (their responses say {@code Connection: close}).</li>
 *   <li>A request sent before the signal, or within the first half of {@code requestAcceptGraceTimeout}, succeeded.
 *       Failures are allowed only at the connection level, for requests sent after that: once the grace is over the
 *       listener is closed (connection refused), and a keep-alive connection idle at that moment is closed (the
 *       usual HTTP/1.1 race of a request crossing the close, which a client retries on a new connection).</li>
 *   <li>Ping answers 200, then the terminating 503 from the signal until the entry points have drained, and only
 *       then stops answering; the process exits 0 within {@code requestAcceptGraceTimeout + graceTimeOut} plus a
 *       margin for the JVM to stop.</li>
 * </ul>
 */
class ShutdownUnderLoadIT {

    static final int CLIENTS = 32;
    static final Duration BACKEND_PACE = Duration.ofMillis(200);
    static final Duration ACCEPT_GRACE = Duration.ofSeconds(2);
    static final Duration GRACE_TIME_OUT = Duration.ofSeconds(5);
    static final Duration EXIT_MARGIN = Duration.ofSeconds(5);

    /** One request of the load: when it was sent, and its status (0 when it failed without a response). */
    record Outcome(long id, long sentNanos, long doneNanos, int status, String failure) {
    }

    /** One ping probe: when, and its status (0: no answer, the connection was refused or closed). */
    record Probe(long atNanos, int status) {
    }

    @Test
    void sigtermUnderLoadFailsNoAcceptedRequestAndExits0(@TempDir Path dir) throws Exception {
        Set<Long> atBackend = ConcurrentHashMap.newKeySet();
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        backend.setExecutor(Executors.newFixedThreadPool(2 * CLIENTS));
        backend.createContext("/", ex -> {
            String id = ex.getRequestHeaders().getFirst("X-Load-Id");
            if (id != null) {
                atBackend.add(Long.parseLong(id));
            }
            LockSupport.parkNanos(BACKEND_PACE.toNanos()); // the backend's work, not a wait for the proxy
            byte[] body = "done".getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        backend.start();
        Files.writeString(dir.resolve("dynamic.yml"), """
                http:
                  routers: {work: {entryPoints: [web], rule: "PathPrefix(`/`)", service: work}}
                  services: {work: {loadBalancer: {servers: [{url: "http://127.0.0.1:%d"}]}}}
                """.formatted(backend.getAddress().getPort()));
        int ping = ProxyProcess.freePort();
        int web = ProxyProcess.freePort();
        List<Outcome> outcomes = new CopyOnWriteArrayList<>();
        List<Probe> probes = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService load = Executors.newFixedThreadPool(CLIENTS + 1);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).proxy(HttpClient.Builder.NO_PROXY).build();
        try (ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping,
                "--entryPoints.web.address=127.0.0.1:" + web, "--providers.file.filename=dynamic.yml",
                "--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=" + ACCEPT_GRACE.toSeconds() + "s",
                "--entryPoints.web.transport.lifeCycle.graceTimeOut=" + GRACE_TIME_OUT.toSeconds() + "s")
                .workingDirectory(dir).start()) {
            proxy.awaitPort(web);
            await("route to the backend").atMost(ProxyProcess.TIMEOUT).pollInterval(Duration.ofMillis(50))
                    .until(() -> Loopback.get(web, "/ready").statusCode() == 200);
            AtomicLong ids = new AtomicLong();
            for (int i = 0; i < CLIENTS; i++) {
                load.submit(() -> generateLoad(client, web, ids, outcomes, stop));
            }
            load.submit(() -> probePing(ping, probes, stop));
            await("load under way").atMost(ProxyProcess.TIMEOUT)
                    .until(() -> outcomes.stream().filter(o -> o.status() == 200).count() >= 300);

            long signalled = System.nanoTime();
            proxy.signal("TERM");
            int exit = proxy.awaitExit();
            long exited = System.nanoTime();
            stop.set(true);
            load.shutdown();
            assertThat(load.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

            assertThat(exit).as(proxy.transcript()).isZero();
            assertThat(Duration.ofNanos(exited - signalled)).as("exit within the grace periods")
                    .isLessThan(ACCEPT_GRACE.plus(GRACE_TIME_OUT).plus(EXIT_MARGIN));

            List<Outcome> answered = outcomes.stream().filter(o -> o.status() != 0).toList();
            assertThat(answered).as("every response is a 200").allMatch(o -> o.status() == 200);
            Map<Long, Outcome> byId = outcomes.stream().collect(Collectors.toMap(Outcome::id, o -> o));
            List<Outcome> lostAfterBackend = atBackend.stream().map(byId::get)
                    .filter(o -> o != null && o.status() != 200).toList();
            assertThat(lostAfterBackend).as("requests that reached the backend and failed at the client").isEmpty();
            long mustSucceedBefore = signalled + ACCEPT_GRACE.toNanos() / 2;
            assertThat(outcomes.stream().filter(o -> o.sentNanos() < mustSucceedBefore && o.status() != 200).toList())
                    .as("requests sent before the signal or early in the accept grace that failed").isEmpty();

            long firstFailure = outcomes.stream().filter(o -> o.status() == 0).mapToLong(Outcome::doneNanos).min()
                    .orElse(Long.MAX_VALUE);
            assertThat(firstFailure).as("some requests were refused once the entry point stopped accepting")
                    .isLessThan(Long.MAX_VALUE);
            assertThat(outcomes.stream().filter(o -> o.sentNanos() < firstFailure && o.doneNanos() > firstFailure
                    && o.status() == 200).count())
                    .as("requests in flight when the first connection was refused, completed").isPositive();

            List<Probe> afterSignal = probes.stream().filter(p -> p.atNanos() > signalled).toList();
            // A probe may still see 200 if it beats the signal handler, and 0 once the process is gone; neither is required.
            assertThat(afterSignal).extracting(Probe::status).isSubsetOf(200, 503, 0);
            long first503 = afterSignal.stream().filter(p -> p.status() == 503).mapToLong(Probe::atNanos).min()
                    .orElseThrow(() -> new AssertionError("ping never answered 503: " + afterSignal));
            long last503 = afterSignal.stream().filter(p -> p.status() == 503).mapToLong(Probe::atNanos).max().orElseThrow();
            assertThat(afterSignal.stream().filter(p -> p.atNanos() > first503 && p.atNanos() < last503)
                    .map(Probe::status).toList()).as("ping between its first and last 503").containsOnly(503);
            assertThat(afterSignal.stream().filter(p -> p.atNanos() > first503 && p.status() == 200).toList())
                    .as("200 after the first 503").isEmpty();
            assertThat(last503).as("ping answered 503 while the web entry point drained (after its first refusal)")
                    .isGreaterThan(firstFailure);
        } finally {
            stop.set(true);
            load.shutdownNow();
            backend.stop(0);
        }
    }

    private static void generateLoad(HttpClient client, int port, AtomicLong ids, List<Outcome> outcomes,
                                     AtomicBoolean stop) {
        while (!stop.get()) {
            long id = ids.incrementAndGet();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/work/" + id))
                    .header("X-Load-Id", Long.toString(id)).timeout(Duration.ofSeconds(20)).build();
            long sent = System.nanoTime();
            try {
                HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                boolean whole = r.statusCode() != 200 || r.body().equals("done");
                outcomes.add(new Outcome(id, sent, System.nanoTime(), whole ? r.statusCode() : -1, null));
            } catch (IOException e) {
                outcomes.add(new Outcome(id, sent, System.nanoTime(), 0, e.toString()));
                LockSupport.parkNanos(Duration.ofMillis(5).toNanos()); // the client's pace after a failure
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void probePing(int port, List<Probe> probes, AtomicBoolean stop) {
        while (!stop.get()) {
            int status;
            try {
                status = Loopback.get(port, "/ping").statusCode();
            } catch (RuntimeException refusedOrClosed) {
                status = 0;
            }
            probes.add(new Probe(System.nanoTime(), status));
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos()); // the probe's pace
        }
    }
}
