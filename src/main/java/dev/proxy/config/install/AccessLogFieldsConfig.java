package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code accessLog.fields}: request headers in JSON access log lines ({@code request_<Header>} fields).
 *
 * @param headers the header modes
 */
public record AccessLogFieldsConfig(@Nullable Headers headers) {

    public static final AccessLogFieldsConfig DEFAULT = new AccessLogFieldsConfig(null);

    /** What happens to a header's value in the log. */
    public enum Mode { KEEP, DROP, REDACT }

    public AccessLogFieldsConfig {
        headers = headers == null ? Headers.DEFAULT : headers;
    }

    /**
     * {@code accessLog.fields.headers}.
     *
     * @param defaultMode mode of headers not named (default {@code drop}, as in Traefik)
     * @param names       mode per header name (case-insensitive)
     */
    public record Headers(@Nullable Mode defaultMode, @Nullable Map<String, Mode> names) {

        /**
         * Credentials are redacted unless a name says otherwise, even with {@code defaultMode: keep}: an access log
         * is read by more people than the proxy's configuration. (Declared before DEFAULT, whose constructor reads it.)
         */
        public static final List<String> REDACTED_BY_DEFAULT = List.of("Authorization", "Proxy-Authorization",
                "Cookie", "X-Consul-Token", "X-Api-Key", "X-Amz-Security-Token");

        public static final Headers DEFAULT = new Headers(null, null);

        public Headers {
            defaultMode = defaultMode == null ? Mode.DROP : defaultMode;
            TreeMap<String, Mode> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            REDACTED_BY_DEFAULT.forEach(h -> all.put(h, Mode.REDACT));
            if (names != null) {
                all.putAll(names);
            }
            names = Collections.unmodifiableMap(all);
        }

        /** The mode of one header. */
        public Mode modeOf(String header) {
            Mode m = names.get(header.toLowerCase(Locale.ROOT));
            return m == null ? defaultMode : m;
        }
    }
}
