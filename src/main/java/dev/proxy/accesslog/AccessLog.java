package dev.proxy.accesslog;

import dev.proxy.config.install.AccessLogConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.metrics.ProxyMetrics;
import dev.proxy.server.ExchangeListener;
import dev.proxy.server.ExchangeRecord;
import io.micronaut.context.annotation.Requires;
import io.netty.util.internal.PlatformDependent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log: one line per finished exchange, to a file or standard output, in {@code common} or {@code json}
 * format.
 *
 * <p>Off the request path: the event loop only puts the exchange's record in a bounded queue; one writer thread
 * formats lines and writes what has queued up in one write call ({@code bufferingSize} lines at most, when set).
 * The writer polls the queue every {@value #IDLE_PARK_MILLIS} ms (at once while batches come full) rather than
 * being woken per line: waking a thread, and a small write, are system calls that per request would cost more than
 * the line itself, so lines reach the file up to that much later.
 * When the queue is full (the disk or the reader of standard output cannot keep up) the line is dropped and
 * counted — never does a request wait for its log line. Drops are logged at most every ten seconds and exported as
 * {@code proxy_accesslog_dropped_lines_total}.
 *
 * <p>The file is opened for appending, so rotation by copy-and-truncate works; rotation by renaming works with
 * {@link #reopen()} (SIGUSR1).
 */
@Singleton
@Requires(condition = AccessLogEnabled.class)
public final class AccessLog implements ExchangeListener, ProxyMetrics.DroppedLines, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);
    static final int MIN_QUEUE = 16_384;
    /** Lines per write when {@code bufferingSize} is 0: what is queued, up to this. */
    static final int DEFAULT_BATCH = 1024;
    static final long IDLE_PARK_MILLIS = 20;
    private static final long DROP_REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final boolean addInternals;
    private final Queue<AccessLogLine> queue;
    private final int perWrite;
    private final LineFormat format;
    /** Written by the writer thread only (reopen included); the file path is empty for standard output. */
    private volatile OutputStream out;
    private final String filePath;
    private final boolean ownsOut;
    private volatile boolean reopenRequested;
    private final LongAdder dropped = new LongAdder();
    private final AtomicLong requests = new AtomicLong();
    private final Thread writer;
    private volatile boolean closed;

    @Inject
    public AccessLog(InstallConfig install) {
        this(install.accessLog(), open(install.accessLog().filePath()), !install.accessLog().filePath().isEmpty());
    }

    /** @param out where lines go; closed with the log when {@code ownsOut} */
    AccessLog(AccessLogConfig config, OutputStream out, boolean ownsOut) {
        this(config, out, ownsOut, ownsOut ? config.filePath() : "");
    }

    private AccessLog(AccessLogConfig config, OutputStream out, boolean ownsOut, String filePath) {
        this.filePath = filePath;
        this.addInternals = config.addInternals();
        this.perWrite = config.bufferingSize() > 0 ? config.bufferingSize() : DEFAULT_BATCH;
        // Netty's bounded multi-producer single-consumer queue (JCTools, shaded in netty-common; internal API, so
        // check it on Netty upgrades): offers from the event loops take no lock.
        this.queue = PlatformDependent.newFixedMpscQueue(Math.max(MIN_QUEUE, 4 * perWrite));
        this.format = config.format() == AccessLogConfig.Format.JSON ? new JsonFormat(config.fields().headers())
                : new CommonFormat();
        this.out = out;
        this.ownsOut = ownsOut;
        this.writer = new Thread(this::drain, "proxy-accesslog");
        writer.setDaemon(true);
        writer.start();
    }

    private static OutputStream open(String filePath) {
        if (filePath.isEmpty()) {
            return System.out; // shared with the proxy's own log, which writes whole lines to it too
        }
        try {
            Path p = Path.of(filePath).toAbsolutePath();
            Files.createDirectories(p.getParent());
            return Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("accessLog.filePath " + filePath + ": cannot open: " + e.getMessage(), e);
        }
    }

    @Override
    public void completed(ExchangeRecord r) {
        if (closed || r.internal() && !addInternals) {
            return;
        }
        long start = System.currentTimeMillis() - r.durationNanos() / 1_000_000;
        if (!queue.offer(new AccessLogLine(r, start, requests.incrementAndGet()))) {
            dropped.increment();
        }
    }

    @Override
    public long droppedLines() {
        return dropped.sum();
    }

    /** The writer thread: takes what is queued, formats it and writes it in batches, until closed and empty. */
    private void drain() {
        List<AccessLogLine> batch = new ArrayList<>(Math.min(perWrite, DEFAULT_BATCH));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
        long reportedDrops = 0;
        long lastReport = System.nanoTime();
        while (true) {
            AccessLogLine next;
            while (batch.size() < perWrite && (next = queue.poll()) != null) {
                batch.add(next);
            }
            if (batch.isEmpty() && closed) {
                return; // nothing left, and nothing more will come
            }
            if (batch.size() < perWrite) {
                // Not a full batch: let lines gather before the next write. Draining as they come would mean one
                // small write (a system call) per line or two, and a writer thread competing with the event loops
                // for the CPU all the time; lines are at most this late.
                if (!batch.isEmpty()) {
                    writeBatch(batch, buffer);
                } else {
                    reopenIfRequested();
                }
                if (!closed) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS));
                }
            } else {
                writeBatch(batch, buffer);
            }
            long drops = dropped.sum();
            if (drops > reportedDrops && System.nanoTime() - lastReport > DROP_REPORT_NANOS) {
                LOG.warn("access log: {} lines dropped so far: the writer cannot keep up", drops);
                reportedDrops = drops;
                lastReport = System.nanoTime();
            }
        }
    }

    private void writeBatch(List<AccessLogLine> batch, ByteArrayOutputStream buffer) {
        buffer.reset();
        for (AccessLogLine line : batch) {
            try {
                format.write(line, buffer);
            } catch (IOException | RuntimeException e) {
                LOG.warn("access log: cannot format a line: {}", e.toString());
            }
        }
        batch.clear();
        write(buffer);
    }

    /**
     * Log rotation (SIGUSR1, as Traefik): the file is closed and opened again at its path, so after a rotation tool
     * has renamed it, new lines go to a fresh file there. Done by the writer thread before its next write; lines
     * queued meanwhile are not lost. Without a file (standard output) there is nothing to reopen.
     */
    public void reopen() {
        if (filePath.isEmpty() || closed) {
            return;
        }
        reopenRequested = true;
        LockSupport.unpark(writer);
    }

    /** On the writer thread: the file is reopened, or (if that fails) the old stream is kept and the failure logged. */
    private void reopenIfRequested() {
        if (!reopenRequested) {
            return;
        }
        reopenRequested = false;
        try {
            OutputStream fresh = open(filePath);
            OutputStream old = out;
            out = fresh;
            old.close();
            LOG.info("access log: reopened {}", filePath);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("access log: cannot reopen {}, still writing to the file open before: {}", filePath, e.getMessage());
        }
    }

    private void write(ByteArrayOutputStream buffer) {
        reopenIfRequested();
        if (buffer.size() == 0) {
            return;
        }
        try {
            buffer.writeTo(out);
            out.flush();
        } catch (IOException e) {
            LOG.warn("access log: write failed: {}", e.toString());
        }
    }

    /** Writes what is queued (waiting at most two seconds) and stops. */
    @PreDestroy
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        LockSupport.unpark(writer);
        try {
            writer.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ownsOut) {
            try {
                out.close();
            } catch (IOException e) {
                LOG.debug("access log: close: {}", e.toString());
            }
        }
    }
}
