package dev.proxy.config.install;

import io.micronaut.core.annotation.Nullable;

/**
 * {@code log}: the proxy's own log.
 *
 * @param level  TRACE, DEBUG, INFO (default), WARN, ERROR; Traefik's FATAL and PANIC mean ERROR
 * @param format {@code common} (default) or {@code json}
 */
public record LogConfig(@Nullable Level level, @Nullable Format format) {

    public static final LogConfig DEFAULT = new LogConfig(null, null);

    public enum Level { TRACE, DEBUG, INFO, WARN, ERROR, FATAL, PANIC }

    public enum Format { COMMON, JSON }

    public LogConfig {
        level = level == null ? Level.INFO : level;
        format = format == null ? Format.COMMON : format;
    }
}
