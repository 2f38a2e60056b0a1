package dev.proxy.accesslog;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Timestamps for log lines, formatted once per second and completed with the milliseconds by hand: formatting
 * dates is the dearest part of a line, and the writer formats thousands of lines a second. One per writer thread.
 */
final class UtcTimes {

    static final DateTimeFormatter CLF = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private long second = Long.MIN_VALUE;
    private String clf;
    private String isoSeconds;
    private final char[] iso = new char[24];

    /** {@code 10/Oct/2000:13:55:36 +0000}. */
    String clf(long millis) {
        at(millis);
        return clf;
    }

    /** {@code 2000-10-10T13:55:36.123Z}, as {@link Instant#toString()} writes a time with milliseconds. */
    String iso(long millis) {
        at(millis);
        isoSeconds.getChars(0, 19, iso, 0);
        int ms = (int) Math.floorMod(millis, 1000L);
        iso[19] = '.';
        iso[20] = (char) ('0' + ms / 100);
        iso[21] = (char) ('0' + ms / 10 % 10);
        iso[22] = (char) ('0' + ms % 10);
        iso[23] = 'Z';
        return new String(iso);
    }

    private void at(long millis) {
        long s = Math.floorDiv(millis, 1000L);
        if (s != second) {
            Instant t = Instant.ofEpochSecond(s);
            clf = CLF.format(t);
            isoSeconds = ISO_SECONDS.format(t);
            second = s;
        }
    }
}
