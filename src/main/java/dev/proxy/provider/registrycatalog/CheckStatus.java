package dev.proxy.provider.registrycatalog;

import java.util.List;
import java.util.Locale;

/**
 * Consul's aggregated health of an instance: the worst status among all its checks, node checks included, with
 * maintenance (Consul's {@code _node_maintenance} and {@code _service_maintenance:<id>} checks) worse than critical,
 * critical worse than warning, warning worse than passing. No checks at all counts as passing.
 */
final class CheckStatus {

    static final String PASSING = "passing";
    static final String WARNING = "warning";
    static final String CRITICAL = "critical";
    static final String MAINTENANCE = "maintenance";
    static final String ANY = "any";

    /** One check of an instance: its id and Consul status. */
    record Check(String id, String status) {
    }

    private CheckStatus() {
    }

    static String aggregate(List<Check> checks) {
        int worst = 0;
        for (Check c : checks) {
            worst = Math.max(worst, rank(c));
        }
        return switch (worst) {
            case 0 -> PASSING;
            case 1 -> WARNING;
            case 2 -> CRITICAL;
            default -> MAINTENANCE;
        };
    }

    private static int rank(Check check) {
        if (check.id().equals("_node_maintenance") || check.id().startsWith("_service_maintenance:")) {
            return 3;
        }
        return switch (check.status().toLowerCase(Locale.ROOT)) {
            case PASSING -> 0;
            case WARNING -> 1;
            // Unknown statuses count as critical: never route to what Consul does not call healthy.
            default -> 2;
        };
    }

    /** Whether {@code status} may receive traffic under {@code strictChecks} ({@code any} admits everything). */
    static boolean allowed(String status, List<String> strictChecks) {
        return strictChecks.contains(ANY) || strictChecks.contains(status);
    }
}
