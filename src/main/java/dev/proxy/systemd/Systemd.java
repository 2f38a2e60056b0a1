package dev.proxy.systemd;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.ping.PingProbe;
import dev.proxy.server.EntryPoint;
import dev.proxy.server.ProxyServer;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's side of systemd's service protocol: {@code READY=1} once every entry point is bound, the watchdog
 * keep-alives when systemd asks for them, {@code STOPPING=1} when the graceful shutdown begins. Does nothing without
 * {@code NOTIFY_SOCKET}; a broken socket is logged, never fatal.
 */
public final class Systemd {

    private static final Logger LOG = LoggerFactory.getLogger("dev.proxy");

    private final Map<String, String> env;
    private volatile SystemdNotifier notifier;
    private volatile Watchdog watchdog;

    public Systemd(Map<String, String> env) {
        this.env = env;
    }

    /** Sends {@code READY=1} and starts the watchdog; call once the entry points are bound. */
    public void ready(InstallConfig config, ProxyServer server) {
        try {
            notifier = SystemdNotifier.fromEnvironment(env).orElse(null);
        } catch (IOException | RuntimeException e) {
            LOG.error("systemd: cannot open NOTIFY_SOCKET {}: {}", env.get(SystemdNotifier.NOTIFY_SOCKET), e.toString());
            return;
        }
        if (notifier == null) {
            return;
        }
        long pid = ProcessHandle.current().pid();
        send("READY=1\nMAINPID=" + pid);
        Optional<Duration> interval;
        try {
            interval = Watchdog.interval(env, pid);
        } catch (IllegalArgumentException e) {
            LOG.error("systemd watchdog: {}", e.getMessage());
            return;
        }
        if (interval.isEmpty()) {
            return;
        }
        if (!config.pingEnabled() || config.ping().manualRouting()) {
            // The keep-alive is to prove that requests are served; without an automatic /ping route there is no probe.
            LOG.error("systemd watchdog: WATCHDOG_USEC is set but ping is {}; no WATCHDOG=1 will be sent",
                    config.pingEnabled() ? "routed manually" : "disabled (enable it with --ping)");
            return;
        }
        EntryPoint ep = server.entryPoints().get(config.ping().entryPoint());
        watchdog = new Watchdog(notifier, PingProbe.uri(ep.config(), ep.port(), "/ping"), interval.get());
        watchdog.start();
    }

    /** Stops the keep-alives and sends {@code STOPPING=1}: systemd now waits for the exit ({@code TimeoutStopSec}). */
    public void stopping() {
        Watchdog w = watchdog;
        if (w != null) {
            w.close();
        }
        send("STOPPING=1");
    }

    private void send(String state) {
        SystemdNotifier n = notifier;
        if (n == null) {
            return;
        }
        try {
            n.send(state);
        } catch (IOException e) {
            LOG.error("systemd: cannot send {} to {}: {}", state.replace('\n', ' '), n.socketName(), e.toString());
        }
    }
}
