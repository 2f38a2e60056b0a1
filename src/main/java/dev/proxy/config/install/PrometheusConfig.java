package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code metrics.prometheus}: Prometheus text exposition at {@code /metrics}.
 *
 * @param entryPoint           entry point serving {@code /metrics} (default {@code proxy}, the internal one, created on
 *                             :8080 when missing: metrics stay off the public entry points)
 * @param manualRouting        when true no router is made; route to {@code prometheus@internal} yourself
 * @param addEntryPointsLabels per-entry-point request metrics (default true)
 * @param addRoutersLabels     per-router request metrics (default false: one series set per router can be many)
 * @param addServicesLabels    per-service request metrics (default true)
 * @param buckets              request duration histogram buckets in seconds (default 0.1, 0.3, 1.2, 5)
 */
public record PrometheusConfig(@Nullable String entryPoint, @Nullable Boolean manualRouting,
                               @Nullable Boolean addEntryPointsLabels, @Nullable Boolean addRoutersLabels,
                               @Nullable Boolean addServicesLabels, @Nullable List<Double> buckets) {

    public static final String DEFAULT_ENTRY_POINT = InstallConfig.INTERNAL_ENTRY_POINT;
    public static final List<Double> DEFAULT_BUCKETS = List.of(0.1, 0.3, 1.2, 5.0);

    public PrometheusConfig {
        entryPoint = entryPoint == null || entryPoint.isBlank() ? DEFAULT_ENTRY_POINT : entryPoint.trim();
        manualRouting = manualRouting != null && manualRouting;
        addEntryPointsLabels = addEntryPointsLabels == null || addEntryPointsLabels;
        addRoutersLabels = addRoutersLabels != null && addRoutersLabels;
        addServicesLabels = addServicesLabels == null || addServicesLabels;
        buckets = buckets == null || buckets.isEmpty() ? DEFAULT_BUCKETS : List.copyOf(buckets);
        double previous = 0;
        for (double b : buckets) {
            if (!(b > previous) || Double.isInfinite(b)) {
                throw new InvalidValueException("buckets", "must be positive, finite and increasing");
            }
            previous = b;
        }
    }
}
