package dev.proxy.accesslog;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The request target as the access log writes it: credentials passed in the query string ({@code ?access_token=},
 * {@code ?api_key=}, pre-signed URLs' {@code X-Amz-Signature}) are replaced by {@code REDACTED}, since links with
 * tokens in them end up in logs that many people read.
 */
final class RequestTarget {

    static final String REDACTED = "REDACTED";
    private static final Pattern CREDENTIAL = Pattern.compile(
            ".*(token|password|passwd|secret|api[_-]?key|signature|credential|session).*");

    private RequestTarget() {
    }

    static String redacted(String target) {
        int q = target.indexOf('?');
        if (q < 0) {
            return target;
        }
        StringBuilder b = new StringBuilder(target.length()).append(target, 0, q + 1);
        String query = target.substring(q + 1);
        int start = 0;
        while (start <= query.length()) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? query.length() : amp;
            String pair = query.substring(start, end);
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            if (eq >= 0 && CREDENTIAL.matcher(name.toLowerCase(Locale.ROOT)).matches()) {
                b.append(name).append('=').append(REDACTED);
            } else {
                b.append(pair);
            }
            if (amp < 0) {
                break;
            }
            b.append('&');
            start = amp + 1;
        }
        return b.toString();
    }
}
