package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code accessLog}: one line per request. Present (even empty, {@code --accessLog}) means enabled.
 *
 * @param filePath      file to append to; empty means standard output
 * @param format        {@code common} (default: Common Log Format with Traefik's extra fields) or {@code json}
 * @param bufferingSize lines written per write call at most (default 0: each line as it comes; larger values batch
 *                      writes under load). Lines wait in a bounded queue either way and are dropped, and counted, when
 *                      the writer falls behind: the request path never waits for the log
 * @param fields        which request headers appear in JSON lines
 * @param addInternals  log requests to internal services (ping, api, dashboard, metrics) too (default false)
 */
public record AccessLogConfig(@Nullable String filePath, @Nullable Format format, @Nullable Integer bufferingSize,
                              @Nullable AccessLogFieldsConfig fields, @Nullable Boolean addInternals) {

    /** Line formats. */
    public enum Format { COMMON, JSON }

    public AccessLogConfig {
        filePath = filePath == null ? "" : filePath.trim();
        format = format == null ? Format.COMMON : format;
        bufferingSize = bufferingSize == null ? 0 : bufferingSize;
        if (bufferingSize < 0) {
            throw new InvalidValueException("bufferingSize", "must not be negative");
        }
        fields = fields == null ? AccessLogFieldsConfig.DEFAULT : fields;
        addInternals = addInternals != null && addInternals;
    }
}
