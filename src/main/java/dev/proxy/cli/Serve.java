package dev.proxy.cli;

import dev.proxy.config.decode.ConfigTree;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.InstallConfigLoader;
import dev.proxy.log.LogSetup;
import dev.proxy.provider.Providers;
import dev.proxy.server.ProxyServer;
import io.micronaut.context.ApplicationContext;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Runs the proxy: starts the Micronaut context with the install configuration as a bean, binds the entry points,
 * and on SIGTERM or SIGINT runs the graceful shutdown and exits 0. The signals are handled directly (not through a
 * JVM shutdown hook) so that a clean, drained shutdown exits with 0 as orchestrators expect, instead of 143.
 */
final class Serve {

    private static final Logger LOG = LoggerFactory.getLogger("dev.proxy");

    private final InstallConfigLoader.Loaded loaded;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    Serve(InstallConfigLoader.Loaded loaded) {
        this.loaded = loaded;
    }

    int run() {
        InstallConfig config = loaded.config();
        LogSetup.apply(config.log());
        // The install configuration as loaded, for support; ConfigTree masks secrets, including credentials held as
        // plain text (an access key id), which the records' own toString would print.
        LOG.debug("install configuration: {}", ConfigTree.of(config));
        ApplicationContext context = ApplicationContext.builder()
                .deduceEnvironment(false)
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
        try {
            server.start();
        } catch (IllegalStateException e) {
            LOG.error("{}", e.getMessage());
            context.close();
            return 1;
        }
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        LOG.info("proxy {} started in {} ms; configuration: {}; entry points: {}", VersionCommand.version(), uptime,
                loaded.fileDescription(), server.describe());
        // Providers start once the entry points are bound; they stop when the context closes (@PreDestroy).
        context.getBean(Providers.class).start();
        Signal.handle(new Signal("TERM"), s -> beginShutdown(server, context, s.getName()));
        Signal.handle(new Signal("INT"), s -> beginShutdown(server, context, s.getName()));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private void beginShutdown(ProxyServer server, ApplicationContext context, String signal) {
        if (!stopping.compareAndSet(false, true)) {
            LOG.warn("second SIG{} during shutdown: exiting now", signal);
            Runtime.getRuntime().halt(1);
            return;
        }
        LOG.info("received SIG{}: graceful shutdown", signal);
        Thread t = new Thread(() -> {
            server.shutdown();
            context.close();
            LOG.info("stopped");
            stopped.countDown();
        }, "proxy-shutdown");
        t.start();
    }
}
