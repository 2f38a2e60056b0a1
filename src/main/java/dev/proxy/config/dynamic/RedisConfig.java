package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.List;

/**
 * {@code rateLimit.redis}: keep the buckets in Redis so that every replica enforces one shared limit.
 *
 * @param endpoints    {@code host:port} of a standalone Redis server (default {@code 127.0.0.1:6379}); exactly one
 * @param username     ACL user (Redis 6+); empty for the default user
 * @param password     the password itself (prefer passwordFile or passwordEnv)
 * @param passwordFile a file holding the password (trailing newline ignored); file provider only
 * @param passwordEnv  an environment variable holding the password; file provider only
 * @param db           database number (default 0)
 * @param dialTimeout  connect timeout (default 5s)
 * @param readTimeout  how long one rate-limit check may wait for Redis (default 3s)
 * @param failureMode  what to do while Redis cannot be reached: {@code local} (default) limits each replica on its
 *                     own with the same numbers, {@code open} lets every request through, {@code closed} answers 503
 */
public record RedisConfig(@Nullable List<String> endpoints, @Nullable String username, @Nullable Secret password,
                          @Nullable String passwordFile, @Nullable String passwordEnv, @Nullable Integer db,
                          @Nullable Duration dialTimeout, @Nullable Duration readTimeout,
                          @Nullable FailureMode failureMode) {

    public static final String DEFAULT_ENDPOINT = "127.0.0.1:6379";
    public static final Duration DEFAULT_DIAL_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(3);

    /** Behaviour while Redis is unreachable. */
    public enum FailureMode { LOCAL, OPEN, CLOSED }

    public RedisConfig {
        endpoints = endpoints == null || endpoints.isEmpty() ? List.of(DEFAULT_ENDPOINT) : List.copyOf(endpoints);
        if (endpoints.size() != 1) {
            throw new InvalidValueException("endpoints",
                    "exactly one endpoint (a standalone Redis server); Cluster and Sentinel are not supported");
        }
        String ep = endpoints.get(0).trim();
        int colon = ep.lastIndexOf(':');
        if (colon <= 0 || !ep.substring(colon + 1).matches("\\d{1,5}")
                || Integer.parseInt(ep.substring(colon + 1)) < 1 || Integer.parseInt(ep.substring(colon + 1)) > 65535) {
            throw new InvalidValueException("endpoints", "expected host:port");
        }
        username = username == null ? "" : username;
        passwordFile = passwordFile == null ? "" : passwordFile.trim();
        passwordEnv = passwordEnv == null ? "" : passwordEnv.trim();
        int sources = (password != null && !password.isEmpty() ? 1 : 0) + (passwordFile.isEmpty() ? 0 : 1)
                + (passwordEnv.isEmpty() ? 0 : 1);
        if (sources > 1) {
            throw new InvalidValueException("password", "give only one of password, passwordFile and passwordEnv");
        }
        password = password == null ? new Secret("") : password;
        db = db == null ? 0 : db;
        if (db < 0) {
            throw new InvalidValueException("db", "must not be negative");
        }
        dialTimeout = dialTimeout == null ? DEFAULT_DIAL_TIMEOUT : dialTimeout;
        readTimeout = readTimeout == null ? DEFAULT_READ_TIMEOUT : readTimeout;
        if (dialTimeout.isZero() || dialTimeout.isNegative()) {
            throw new InvalidValueException("dialTimeout", "must be positive");
        }
        if (readTimeout.isZero() || readTimeout.isNegative()) {
            throw new InvalidValueException("readTimeout", "must be positive");
        }
        failureMode = failureMode == null ? FailureMode.LOCAL : failureMode;
    }
}
