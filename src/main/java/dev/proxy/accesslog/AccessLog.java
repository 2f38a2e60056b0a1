package dev.proxy.accesslog;

import dev.proxy.config.install.AccessLogConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.metrics.ProxyMetrics;
import dev.proxy.server.ExchangeListener;
import dev.proxy.server.ExchangeRecord;
import io.micronaut.context.annotation.Requires;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log: one line per finished exchange, to a file or standard output, in {@code common} or {@code json}
 * format.
 *
 * <p>Off the request path: the event loop only puts the exchange's record in a bounded queue; one writer thread
 * formats lines and writes up to {@code bufferingSize} of them per write call. When the queue is full (the disk or
 * the reader of standard output cannot keep up) the line is dropped and counted — never does a request wait for
 * its log line. Drops are logged at most every ten seconds and exported as {@code proxy_accesslog_dropped_lines_total}.
 *
 * <p>The file is opened for appending, so rotation by copy-and-truncate works.
 */
@Singleton
@Requires(condition = AccessLogEnabled.class)
public final class AccessLog implements ExchangeListener, ProxyMetrics.DroppedLines, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);
    static final int MIN_QUEUE = 16_384;
    private static final long DROP_REPORT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final AccessLogLine STOP = new AccessLogLine(null, 0, 0);

    private final boolean addInternals;
    private final BlockingQueue<AccessLogLine> queue;
    private final int perWrite;
    private final LineFormat format;
    private final OutputStream out;
    private final boolean ownsOut;
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
        this.addInternals = config.addInternals();
        this.perWrite = Math.max(1, config.bufferingSize());
        this.queue = new ArrayBlockingQueue<>(Math.max(MIN_QUEUE, 4 * perWrite));
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

    /** The writer thread: takes what is queued, formats it and writes it in batches. */
    private void drain() {
        List<AccessLogLine> batch = new ArrayList<>(perWrite);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(256 * perWrite);
        long reportedDrops = 0;
        long lastReport = System.nanoTime();
        while (true) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            queue.drainTo(batch, perWrite - 1);
            boolean stop = false;
            buffer.reset();
            for (AccessLogLine line : batch) {
                if (line == STOP) {
                    stop = true;
                    break;
                }
                try {
                    format.write(line, buffer);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("access log: cannot format a line: {}", e.toString());
                }
            }
            batch.clear();
            write(buffer);
            long drops = dropped.sum();
            if (drops > reportedDrops && System.nanoTime() - lastReport > DROP_REPORT_NANOS) {
                LOG.warn("access log: {} lines dropped so far: the writer cannot keep up", drops);
                reportedDrops = drops;
                lastReport = System.nanoTime();
            }
            if (stop) {
                return;
            }
        }
    }

    private void write(ByteArrayOutputStream buffer) {
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
        try {
            if (queue.offer(STOP, 2, TimeUnit.SECONDS)) {
                writer.join(2000);
            }
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
