package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.proxy.testing.Loopback;
import dev.proxy.testing.ProxyProcess;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful shutdown of the packaged program on SIGTERM and SIGINT: ping answers the terminating status while the
 * other entry points drain (in-flight requests complete), then the process exits 0.
 *
 * <p>The data entry point keeps accepting for its {@code requestAcceptGraceTimeout}; the ping entry point has the
 * default grace of 0s and must still answer all that time. (Traefik closes it at once, so health checkers see
 * "connection refused" rather than the terminating status.)
 */
class ShutdownIT {

    static final String GRACE = "5s";

    @Test
    void onSigtermPingAnswers503UntilTheEntryPointsHaveDrainedThenTheProcessExits0() {
        int ping = ProxyProcess.freePort();
        int web = ProxyProcess.freePort();
        try (ProxyProcess proxy = pingAndGracefulWeb(ping, web).start()) {
            proxy.awaitPort(ping);
            proxy.awaitPort(web);
            assertThat(Loopback.get(ping, "/ping").statusCode()).isEqualTo(200);

            proxy.signal("TERM");

            awaitPingStatus(proxy, ping, 503);
            HttpResponse<String> terminating = Loopback.get(ping, "/ping");
            assertThat(terminating.statusCode()).isEqualTo(503);
            assertThat(terminating.body()).isEqualTo("Service Unavailable");
            assertThat(Loopback.get(web, "/").statusCode()).as("web still accepts during its grace").isEqualTo(404);
            ProxyProcess check = ProxyProcess.command("healthcheck", "--ping",
                    "--entryPoints.proxy.address=127.0.0.1:" + ping).run();
            assertThat(check.stdout()).as(check.transcript()).containsExactly("Bad healthcheck status: 503 Service Unavailable");
            assertThat(check.exitCode()).isEqualTo(1);

            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
            assertThat(proxy.stdout()).anyMatch(l -> l.contains("received SIGTERM: graceful shutdown"))
                    .last().asString().endsWith("stopped");
        }
    }

    @Test
    void onSigintPingAnswersACustomTerminatingStatus() {
        int ping = ProxyProcess.freePort();
        int web = ProxyProcess.freePort();
        try (ProxyProcess proxy = pingAndGracefulWeb(ping, web, "--ping.terminatingStatusCode=204").start()) {
            proxy.awaitPort(ping);

            proxy.signal("INT");

            awaitPingStatus(proxy, ping, 204);
            assertThat(Loopback.get(ping, "/ping").body()).isEmpty();
            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
        }
    }

    @Test
    void sigintInheritedAsIgnoredStillStartsTheGracefulShutdown() {
        // A shell without job control starts `proxy &` with SIGINT ignored; the JVM alone would keep it ignored.
        int ping = ProxyProcess.freePort();
        int web = ProxyProcess.freePort();
        try (ProxyProcess proxy = pingAndGracefulWeb(ping, web).sigintIgnored().start()) {
            proxy.awaitPort(ping);

            proxy.signal("INT");

            awaitPingStatus(proxy, ping, 503);
            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
            assertThat(proxy.stdout()).anyMatch(l -> l.contains("received SIGINT: graceful shutdown"))
                    .noneMatch(l -> l.contains("SIGINT is ignored"));
        }
    }

    @Test
    void withoutTheLauncherASigintInheritedAsIgnoredIsReportedAndSigtermStillWorks() {
        int ping = ProxyProcess.freePort();
        try (ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping)
                .sigintIgnored().jarDirectly().start()) {
            assertThat(proxy.awaitLine("SIGINT is ignored")).contains("only SIGTERM starts a graceful shutdown");
            proxy.awaitPort(ping);

            proxy.signal("INT"); // discarded by the kernel: an ignored signal is never queued
            proxy.signal("TERM");

            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
            assertThat(proxy.stdout()).noneMatch(l -> l.contains("received SIGINT"))
                    .anyMatch(l -> l.contains("received SIGTERM: graceful shutdown"));
        }
    }

    @Test
    void onSigtermAnInFlightRequestCompletesThenTheProcessExits0(@TempDir Path dir) throws Exception {
        // The backend holds /slow until the test lets it answer: the request is in flight for certain.
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        HttpServer backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        backend.createContext("/slow", exchange -> {
            arrived.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "slow answer".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        backend.setExecutor(Executors.newCachedThreadPool());
        backend.start();
        Files.writeString(dir.resolve("dynamic.yml"), """
                http:
                  routers:
                    slow:
                      entryPoints: [web]
                      rule: "PathPrefix(`/`)"
                      service: slow
                  services:
                    slow:
                      loadBalancer:
                        servers:
                          - url: "http://127.0.0.1:%d"
                """.formatted(backend.getAddress().getPort()));
        int ping = ProxyProcess.freePort();
        int web = ProxyProcess.freePort();
        try (ProxyProcess proxy = ProxyProcess.command("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping,
                "--entryPoints.web.address=127.0.0.1:" + web, "--providers.file.filename=dynamic.yml")
                .workingDirectory(dir).start()) {
            proxy.awaitPort(web);
            await("route to the backend").atMost(ProxyProcess.TIMEOUT).pollInterval(Duration.ofMillis(50))
                    .until(() -> Loopback.get(web, "/ready").statusCode() == 204);
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> Loopback.get(web, "/slow"));
            assertThat(arrived.await(ProxyProcess.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("request reached the backend").isTrue();

            proxy.signal("TERM");

            awaitPingStatus(proxy, ping, 503);
            assertThat(proxy.isAlive()).as("waits for the request in flight").isTrue();
            answer.countDown();
            HttpResponse<String> r = slow.get(30, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("slow answer");
            assertThat(proxy.awaitExit()).as(proxy.transcript()).isZero();
        } finally {
            answer.countDown();
            backend.stop(0);
        }
    }

    /**
     * Ping on its own entry point, and a {@code web} entry point that keeps accepting for {@link #GRACE} after a
     * signal (so the ping entry point answers the terminating status for that long).
     */
    private static ProxyProcess.Launch pingAndGracefulWeb(int ping, int web, String... more) {
        List<String> args = new ArrayList<>(List.of("--ping", "--entryPoints.proxy.address=127.0.0.1:" + ping,
                "--entryPoints.web.address=127.0.0.1:" + web,
                "--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=" + GRACE));
        args.addAll(List.of(more));
        return ProxyProcess.command(args.toArray(String[]::new));
    }

    /**
     * Polls /ping until it answers {@code status}; on a timeout the failure says which status ping answered last and
     * shows the proxy's output (a transport error fails at once, with its own message).
     */
    private static void awaitPingStatus(ProxyProcess proxy, int port, int status) {
        AtomicReference<String> last = new AtomicReference<>("no answer yet");
        try {
            await("GET /ping → " + status).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        int seen = Loopback.get(port, "/ping").statusCode();
                        last.set("status " + seen);
                        return seen == status;
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("ping never answered " + status + "; last: " + last.get() + "\n"
                    + proxy.transcript(), e);
        }
    }
}
