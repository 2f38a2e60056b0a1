package dev.proxy.accesslog;

import dev.proxy.server.ExchangeRecord;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The Common Log Format with Traefik's additions, one line per request:
 *
 * <pre>{@code
 * <client> - <user> [<time>] "<method> <target> <protocol>" <status> <bytes> "<referer>" "<user agent>" <count> "<router>" "<server URL>" <duration>ms
 * }</pre>
 *
 * Empty values are {@code -}; credentials in the query string are {@code REDACTED} ({@link RequestTarget}). Quoted values have {@code "} and {@code \} escaped and control characters written as
 * {@code \xNN}, so a crafted header cannot forge a line or a field. The user is always {@code -}: the name in an
 * {@code Authorization} header is only a claim.
 */
final class CommonFormat implements LineFormat {

    private final StringBuilder b = new StringBuilder(256);
    private byte[] bytes = new byte[512];
    private final UtcTimes times = new UtcTimes();
    private final ClientAddresses clients = new ClientAddresses();

    @Override
    public void write(AccessLogLine line, ByteArrayOutputStream out) {
        ExchangeRecord r = line.record();
        b.setLength(0);
        b.append(clients.text(r.client())).append(" - - [");
        b.append(times.clf(line.startMillis()));
        b.append("] \"");
        escaped(r.method());
        b.append(' ');
        escaped(RequestTarget.redacted(r.uri()));
        b.append(' ');
        escaped(r.protocol());
        b.append("\" ").append(r.status() == 0 ? 499 : r.status()).append(' ').append(r.bytesSent()).append(' ');
        quoted(r.headers().get(HttpHeaderNames.REFERER));
        b.append(' ');
        quoted(r.headers().get(HttpHeaderNames.USER_AGENT));
        b.append(' ').append(line.requestCount()).append(' ');
        quoted(r.router());
        b.append(' ');
        quoted(r.serviceUrl());
        b.append(' ').append(r.durationNanos() / 1_000_000).append("ms\n");
        encode(b, out);
    }

    /** Writes the line as UTF-8 without making a String of it first (lines are nearly always ASCII). */
    private void encode(StringBuilder line, ByteArrayOutputStream out) {
        int n = line.length();
        if (bytes.length < n) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
        }
        for (int i = 0; i < n; i++) {
            char c = line.charAt(i);
            if (c >= 0x80) {
                out.write(bytes, 0, i);
                out.writeBytes(line.substring(i).getBytes(StandardCharsets.UTF_8));
                return;
            }
            bytes[i] = (byte) c;
        }
        out.write(bytes, 0, n);
    }

    private void quoted(String value) {
        b.append('"');
        escaped(value);
        b.append('"');
    }

    private void escaped(String value) {
        if (value == null || value.isEmpty()) {
            b.append('-');
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                b.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
    }
}
