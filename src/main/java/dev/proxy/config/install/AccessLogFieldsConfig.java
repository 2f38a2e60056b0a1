package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;
import java.util.Collections;
import java.util.List;
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
         * With {@code defaultMode: keep}, credentials are still redacted unless a name says otherwise: an access log
         * is read by more people than the proxy's configuration. (Declared before DEFAULT, whose constructor reads
         * it.)
         */
        public static final List<String> REDACTED_WHEN_KEPT = List.of("Authorization", "Proxy-Authorization",
                "Cookie", "X-Consul-Token", "X-Api-Key", "X-Amz-Security-Token");

        public static final Headers DEFAULT = new Headers(null, null);

        public Headers {
            defaultMode = defaultMode == null ? Mode.DROP : defaultMode;
            TreeMap<String, Mode> given = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            if (names != null) {
                given.putAll(names);
            }
            names = Collections.unmodifiableMap(given);
        }

        /** The mode of one header. */
        public Mode modeOf(String header) {
            Mode m = names.get(header);
            if (m != null) {
                return m;
            }
            if (defaultMode == Mode.KEEP && REDACTED_WHEN_KEPT.stream().anyMatch(h -> h.equalsIgnoreCase(header))) {
                return Mode.REDACT;
            }
            return defaultMode;
        }

        /** Whether no header can appear in a line (the default): lines are then written without looking at any. */
        public boolean dropsAll() {
            return defaultMode == Mode.DROP && names.values().stream().allMatch(m -> m == Mode.DROP);
        }
    }
}
