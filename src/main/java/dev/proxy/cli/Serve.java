package dev.proxy.cli;

import dev.proxy.accesslog.AccessLog;
import dev.proxy.config.decode.ConfigTree;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.InstallConfigLoader;
import dev.proxy.log.LogSetup;
import dev.proxy.ping.PingProbe;
import dev.proxy.provider.Providers;
import dev.proxy.server.NettyTransport;
import dev.proxy.server.ProxyServer;
import dev.proxy.systemd.Systemd;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Runs the proxy: starts the Micronaut context with the install configuration as a bean, binds the entry points,
 * and on SIGTERM or SIGINT runs the graceful shutdown and exits 0. The signals are handled directly (not through a
 * JVM shutdown hook) so that a clean, drained shutdown exits with 0 as orchestrators expect, instead of 143. SIGUSR1
 * reopens the access log file.
 */
final class Serve {

    private static final Logger LOG = LoggerFactory.getLogger("dev.proxy");

    /** System property that makes a start the class-data-sharing training run of the build. */
    static final String CDS_TRAINING_PROPERTY = "proxy.cdsTraining";

    private final InstallConfigLoader.Loaded loaded;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Systemd systemd = new Systemd(System.getenv());
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CompletableFuture<Running> running = new CompletableFuture<>();

    /** What a graceful shutdown stops, once the start has got that far. */
    private record Running(ProxyServer server, ApplicationContext context) {
    }

    Serve(InstallConfigLoader.Loaded loaded) {
        this.loaded = loaded;
    }

    int run() {
        // Handlers before anything else: a signal during start-up is acted on once the entry points are bound,
        // instead of the JVM's default (exit at once with 143 while a load balancer may already send requests).
        Signal.handle(new Signal("TERM"), s -> onSignal(s.getName()));
        // A signal inherited as ignored stays ignored: the JVM installs no handler and says nothing (bin/proxy restores
        // SIGINT's default first where it can; see there).
        boolean sigintIgnored = Signal.handle(new Signal("INT"), s -> onSignal(s.getName())) == SignalHandler.SIG_IGN;
        // SIGUSR1: reopen the access log file (log rotation by renaming, as Traefik); acted on once started.
        Signal.handle(new Signal("USR1"), s -> running.thenAccept(r -> r.context().findBean(AccessLog.class)
                .ifPresent(AccessLog::reopen)));
        long configured = uptimeMillis();
        InstallConfig config = loaded.config();
        boolean indexed = ServiceIndex.install(Serve.class.getClassLoader(), unusedModules(config));
        LogSetup.apply(config.log());
        if (sigintIgnored) {
            LOG.warn("SIGINT is ignored: this process was started with it ignored (in the background by a shell without"
                    + " job control?), so only SIGTERM starts a graceful shutdown");
        }
        // The install configuration as loaded, for support; ConfigTree masks secrets, including credentials held as
        // plain text (an access key id), which the records' own toString would print.
        LOG.debug("install configuration: {}", ConfigTree.of(config));
        LOG.debug("Micronaut services: {}", indexed ? "from the jar's index " + ServiceIndex.RESOURCE : "scanned");
        // The install configuration is the only configuration: Micronaut reads no application.yml, no environment
        // variables and no cloud metadata (each also costs start-up time).
        ApplicationContext context = ApplicationContext.builder()
                .deduceEnvironment(false)
                .deduceCloudEnvironment(false)
                .enableDefaultPropertySources(false)
                .environmentPropertySource(false)
                .banner(false)
                .singletons(config)
                .start();
        ProxyServer server;
        try {
            server = context.getBean(ProxyServer.class);
        } catch (io.micronaut.context.exceptions.BeanInstantiationException e) {
            // e.g. an access log file that cannot be opened: the cause says which and why
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            LOG.error("cannot start: {}", cause.getMessage());
            context.close();
            return 1;
        }
        long contextStarted = uptimeMillis();
        try {
            server.start();
        } catch (IllegalStateException e) {
            LOG.error("{}", e.getMessage());
            context.close();
            return 1;
        }
        long started = uptimeMillis();
        LOG.info("proxy {} started in {} ms after main(); configuration: {}; entry points: {}; network I/O: {}",
                VersionCommand.version(), started, loaded.fileDescription(), server.describe(),
                context.getBean(NettyTransport.class).kind());
        LOG.debug("start-up: command line and configuration {} ms, logging and DI context {} ms, entry points {} ms",
                configured, contextStarted - configured, started - contextStarted);
        // Providers start once the entry points are bound; they stop when the context closes (@PreDestroy).
        context.getBean(Providers.class).start();
        systemd.ready(config, server);
        running.complete(new Running(server, context));
        if (Boolean.getBoolean(CDS_TRAINING_PROPERTY)) {
            trainingRun(server);
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /**
     * Packages of Micronaut modules whose beans serving never uses, so that the context does not load and check their
     * bean definitions (~200 of ~430): Micronaut's own HTTP server, router and management endpoints (the proxy's
     * Netty entry points serve every request, {@code ping@internal} included, and Micronaut's server is never
     * started), its declarative HTTP client (the Consul client builds its own), and Micronaut AWS unless the
     * {@code clusterTasks} provider is configured. The modules stay on the class path.
     */
    static List<String> unusedModules(InstallConfig config) {
        List<String> unused = new ArrayList<>(List.of("io.micronaut.http.server.", "io.micronaut.web.router.",
                "io.micronaut.management.", "io.micronaut.http.client."));
        if (config.providers().clusterTasks() == null) {
            unused.add("io.micronaut.aws.");
        }
        return unused;
    }

    /**
     * The build's class-data-sharing training run (pom.xml, {@code -Dproxy.cdsTraining=true}): sends the first
     * requests a running proxy serves, then shuts down as on SIGTERM, so that the archive written at exit holds the
     * classes of start-up, of the request path and of shutdown.
     */
    private void trainingRun(ProxyServer server) {
        server.entryPoints().values().forEach(ep -> {
            for (String path : List.of("/ping", "/cds-training")) {
                new PingProbe(PingProbe.uri(ep.config(), ep.port(), path), Duration.ofSeconds(5)).send();
            }
        });
        LOG.info("class-data sharing training run: requests served, shutting down");
        onSignal("TERM");
    }

    /** SIGTERM or SIGINT: the graceful shutdown, on its own thread; a second signal exits at once with 1. */
    private void onSignal(String signal) {
        if (!stopping.compareAndSet(false, true)) {
            LOG.warn("second SIG{} during shutdown: exiting now", signal);
            Runtime.getRuntime().halt(1);
            return;
        }
        LOG.info("received SIG{}: graceful shutdown{}", signal, running.isDone() ? "" : " once started");
        running.thenAccept(r -> {
            systemd.stopping();
            new Thread(() -> {
                r.server().shutdown();
                r.context().close();
                LOG.info("stopped");
                stopped.countDown();
            }, "proxy-shutdown").start();
        });
    }

    /**
     * Milliseconds since {@code main} began. (The JVM's own start-up is not counted: the runtime MXBean would load
     * java.management for it, and the process start time from {@code /proc} drifts by up to a second on VMs.)
     */
    private static long uptimeMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - Main.STARTED_NANOS);
    }
}
