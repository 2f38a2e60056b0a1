package dev.proxy.config.decode;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written the way Traefik users write them: Go duration strings ({@code 10s}, {@code 1m30s},
 * {@code 250ms}, {@code 1.5h}) or a bare integer meaning seconds ({@code 15}).
 */
public final class GoDuration {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
    private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ns|us|µs|ms|s|m|h))+");

    private GoDuration() {
    }

    /** Parses a duration; throws {@link IllegalArgumentException} with a user-facing message otherwise. */
    public static Duration parse(String text) {
        String s = text.trim();
        if (s.matches("\\d{1,12}")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (!WHOLE.matcher(s).matches()) {
            throw new IllegalArgumentException("not a duration (examples: 10s, 1m30s, 250ms, or seconds as an integer)");
        }
        double nanos = 0;
        Matcher m = PART.matcher(s);
        while (m.find()) {
            double n = Double.parseDouble(m.group(1));
            nanos += n * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
        }
        if (nanos > Long.MAX_VALUE / 2d) {
            throw new IllegalArgumentException("duration too long");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** Formats like Go ({@code 1m30s}, {@code 250ms}, {@code 0s}) for help texts and dumps. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        StringBuilder b = new StringBuilder();
        long h = d.toHours();
        long m = d.toMinutesPart();
        long s = d.toSecondsPart();
        int ms = d.toMillisPart();
        if (h > 0) {
            b.append(h).append('h');
        }
        if (m > 0) {
            b.append(m).append('m');
        }
        if (s > 0 || ms > 0) {
            b.append(s);
            if (ms > 0) {
                b.append('.').append(String.format("%03d", ms).replaceAll("0+$", ""));
            }
            b.append('s');
        }
        return b.toString();
    }
}
