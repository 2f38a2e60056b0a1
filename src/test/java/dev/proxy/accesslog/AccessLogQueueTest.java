package dev.proxy.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.config.install.AccessLogConfig;
import dev.proxy.server.ExchangeRecord;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The access log never makes the request path wait: a bounded queue, batched writes, counted drops. */
class AccessLogQueueTest {

    /** Records each write call; the first one blocks until released (a stalled disk or pipe). */
    static final class StallingOutput extends OutputStream {
        final List<String> writes = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch firstWrite = new CountDownLatch(1);

        @Override
        public void write(int b) {
            throw new UnsupportedOperationException("whole buffers only");
        }

        @Override
        public void write(byte[] b, int off, int len) {
            firstWrite.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            writes.add(new String(b, off, len, StandardCharsets.UTF_8));
        }
    }

    private static ExchangeRecord record(int i) {
        return new ExchangeRecord("web", "r@file", "s@file", "GET", "/" + i, "HTTP/1.1", "example", new DefaultHttpHeaders(),
                InetAddress.getLoopbackAddress(), 200, 2, System.nanoTime(), 1_000_000, false, null, false);
    }

    private static AccessLogConfig config(int bufferingSize) {
        return new AccessLogConfig(null, null, bufferingSize, null, null);
    }

    @Test
    void whenTheWriterStallsLinesAreDroppedAndCountedWithoutBlocking() throws Exception {
        StallingOutput out = new StallingOutput();
        AccessLog log = new AccessLog(config(0), out, false);
        log.completed(record(0));
        assertThat(out.firstWrite.await(5, TimeUnit.SECONDS)).isTrue(); // the writer is now stuck in write()
        int offered = AccessLog.MIN_QUEUE + 500;
        long start = System.nanoTime();
        for (int i = 1; i <= offered; i++) {
            log.completed(record(i));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(log.droppedLines()).isEqualTo(500);
        out.release.countDown();
        log.close();
        long written = out.writes.stream().mapToLong(w -> w.lines().count()).sum();
        assertThat(written).isEqualTo(1 + AccessLog.MIN_QUEUE);
    }

    @Test
    void bufferingSizeLinesPerWriteAtMost() throws Exception {
        StallingOutput out = new StallingOutput();
        AccessLog log = new AccessLog(config(10), out, false);
        log.completed(record(0));
        assertThat(out.firstWrite.await(5, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i <= 25; i++) {
            log.completed(record(i));
        }
        out.release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> out.writes.stream().mapToLong(w -> w.lines().count()).sum() == 26);
        assertThat(out.writes).extracting(w -> w.lines().count()).containsExactly(1L, 10L, 10L, 5L);
        log.close();
        assertThat(log.droppedLines()).isZero();
    }

    @Test
    void closingWritesWhatIsQueued() {
        StallingOutput out = new StallingOutput();
        out.release.countDown();
        AccessLog log = new AccessLog(config(0), out, false);
        for (int i = 0; i < 100; i++) {
            log.completed(record(i));
        }
        log.close();
        assertThat(out.writes.stream().mapToLong(w -> w.lines().count()).sum()).isEqualTo(100);
        log.completed(record(101)); // after close: ignored, not queued for ever
        assertThat(log.droppedLines()).isZero();
    }
}
