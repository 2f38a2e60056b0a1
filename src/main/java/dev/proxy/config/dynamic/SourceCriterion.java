package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code rateLimit.sourceCriterion}: what groups requests into one bucket. At most one of the three; with none, the
 * socket peer address.
 *
 * @param ipStrategy        an address from {@code X-Forwarded-For} (depth, excludedIPs)
 * @param requestHeaderName the value of this request header (requests without it share one bucket)
 * @param requestHost       the requested host
 */
public record SourceCriterion(@Nullable IpStrategy ipStrategy, @Nullable String requestHeaderName,
                              @Nullable Boolean requestHost) {

    public static final SourceCriterion PEER = new SourceCriterion(null, null, null);

    public SourceCriterion {
        requestHeaderName = requestHeaderName == null ? "" : requestHeaderName.trim();
        requestHost = requestHost != null && requestHost;
        int set = (ipStrategy != null ? 1 : 0) + (requestHeaderName.isEmpty() ? 0 : 1) + (requestHost ? 1 : 0);
        if (set > 1) {
            throw new InvalidValueException("ipStrategy",
                    "give only one of ipStrategy, requestHeaderName and requestHost");
        }
        if (!requestHeaderName.isEmpty()) {
            HeaderSyntax.checkName("requestHeaderName", requestHeaderName);
        }
    }
}
