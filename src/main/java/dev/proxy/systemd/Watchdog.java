package dev.proxy.systemd;

import dev.proxy.ping.PingProbe;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * systemd's software watchdog ({@code WatchdogSec=}): every half period, probes the real ping entry point over
 * loopback and sends {@code WATCHDOG=1} only when it answers 200. A wedged event loop, a lost listener or a draining
 * proxy therefore stops the keep-alives, and systemd restarts the service — a timer that pings from its own thread
 * regardless would prove only that the JVM is alive.
 */
public final class Watchdog implements Closeable {

    public static final String WATCHDOG_USEC = "WATCHDOG_USEC";
    public static final String WATCHDOG_PID = "WATCHDOG_PID";

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);
    private static final Duration MAX_PROBE_TIMEOUT = Duration.ofSeconds(5);

    private final SystemdNotifier notifier;
    private final URI target;
    private final Duration interval;
    private final ScheduledExecutorService scheduler;
    private volatile boolean failing;
    private boolean closed; // guarded by this: no keep-alive may follow close(), e.g. after STOPPING=1

    /**
     * @param notifier where to send {@code WATCHDOG=1}
     * @param target   the ping URL to probe
     * @param interval time between keep-alives (half the systemd watchdog period)
     */
    public Watchdog(SystemdNotifier notifier, URI target, Duration interval) {
        this.notifier = notifier;
        this.target = target;
        this.interval = interval;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "proxy-watchdog");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Half the watchdog period from {@code WATCHDOG_USEC}, or empty when the watchdog is off or meant for another
     * process ({@code WATCHDOG_PID} names a different pid), as {@code sd_watchdog_enabled(3)} decides.
     *
     * @throws IllegalArgumentException when {@code WATCHDOG_USEC} is not a positive number of microseconds
     */
    public static Optional<Duration> interval(Map<String, String> env, long pid) {
        String usec = env.get(WATCHDOG_USEC);
        if (usec == null || usec.isBlank()) {
            return Optional.empty();
        }
        String forPid = env.get(WATCHDOG_PID);
        if (forPid != null && !forPid.isBlank() && !forPid.trim().equals(Long.toString(pid))) {
            return Optional.empty();
        }
        long micros;
        try {
            micros = Long.parseLong(usec.trim());
        } catch (NumberFormatException e) {
            micros = 0;
        }
        if (micros <= 0) {
            throw new IllegalArgumentException(WATCHDOG_USEC + "=" + usec + ": not a positive number of microseconds");
        }
        return Optional.of(Duration.ofNanos(micros * 1000 / 2));
    }

    /** Starts probing now and then every interval. */
    public void start() {
        LOG.info("systemd watchdog: probing {} every {} ms", target, interval.toMillis());
        scheduler.scheduleAtFixedRate(this::beat, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One probe and, when it answers 200, one keep-alive. */
    void beat() {
        Duration timeout = interval.compareTo(MAX_PROBE_TIMEOUT) < 0 ? interval : MAX_PROBE_TIMEOUT;
        PingProbe.Result result = new PingProbe(target, timeout).send();
        if (!result.healthy()) {
            failing = true;
            LOG.error("systemd watchdog: ping {} answered {}; not sending WATCHDOG=1", target,
                    result.failure() != null ? result.failure().toString() : result.status() + " " + result.reason());
            return;
        }
        if (failing) {
            failing = false;
            LOG.info("systemd watchdog: ping {} answers 200 again", target);
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                notifier.send("WATCHDOG=1");
            } catch (IOException e) {
                LOG.error("systemd watchdog: cannot notify {}: {}", notifier.socketName(), e.toString());
            }
        }
    }

    /** Stops the keep-alives (graceful shutdown: systemd then applies its stop timeout instead). */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        scheduler.shutdownNow();
    }
}
