package dev.proxy.accesslog;

import dev.proxy.server.ExchangeRecord;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final StringBuilder b = new StringBuilder(256);

    @Override
    public void write(AccessLogLine line, ByteArrayOutputStream out) {
        ExchangeRecord r = line.record();
        b.setLength(0);
        b.append(r.client() == null ? "-" : r.client().getHostAddress()).append(" - - [");
        TIME.formatTo(Instant.ofEpochMilli(line.startMillis()), b);
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
        out.writeBytes(b.toString().getBytes(StandardCharsets.UTF_8));
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
