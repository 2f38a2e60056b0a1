package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import dev.proxy.config.label.DefaultRule;
import dev.proxy.rules.LabelConstraint;
import dev.proxy.rules.RuleSyntaxException;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code providers.clusterTasks}: ECS tasks discovered through their containers' docker labels. Field meanings and
 * defaults follow the seed specification (and Traefik's ECS provider); {@code prefix} is ours (Traefik has none).
 */
public record ClusterTasksConfig(
        @Nullable Boolean autoDiscoverClusters,
        @Nullable List<String> clusters,
        @Nullable String region,
        @Nullable Secret accessKeyID,
        @Nullable Secret secretAccessKey,
        @Nullable Boolean exposedByDefault,
        @Nullable String constraints,
        @Nullable Boolean healthyTasksOnly,
        @Nullable Integer refreshSeconds,
        @Nullable String defaultRule,
        @Nullable Boolean ecsAnywhere,
        @Nullable String prefix) {

    public static final List<String> DEFAULT_CLUSTERS = List.of("default");
    public static final int DEFAULT_REFRESH_SECONDS = 15;
    public static final String DEFAULT_RULE = "Host(`{{ normalize .Name }}`)";
    public static final String DEFAULT_PREFIX = "proxy";

    public ClusterTasksConfig {
        autoDiscoverClusters = autoDiscoverClusters != null && autoDiscoverClusters;
        clusters = clusters == null || clusters.isEmpty() ? DEFAULT_CLUSTERS : List.copyOf(clusters);
        region = region == null ? "" : region.trim();
        // A secret like the key itself: an access key id names the account's key pair, and with the secret key leaked
        // elsewhere it completes the credential; it never appears in errors, toString or the API.
        accessKeyID = accessKeyID == null ? new Secret("") : new Secret(accessKeyID.reveal().trim());
        secretAccessKey = secretAccessKey == null ? new Secret("") : secretAccessKey;
        if (accessKeyID.isEmpty() != secretAccessKey.isEmpty()) {
            throw new InvalidValueException(accessKeyID.isEmpty() ? "secretAccessKey" : "accessKeyID",
                    "accessKeyID and secretAccessKey must be given together (or neither, to use the default credential chain)");
        }
        exposedByDefault = exposedByDefault == null || exposedByDefault;
        constraints = constraints == null ? "" : constraints;
        try {
            LabelConstraint.compile(constraints); // a typo stops the start instead of hiding every task
        } catch (RuleSyntaxException e) {
            throw new InvalidValueException("constraints", e.getMessage());
        }
        healthyTasksOnly = healthyTasksOnly != null && healthyTasksOnly;
        refreshSeconds = refreshSeconds == null ? DEFAULT_REFRESH_SECONDS : refreshSeconds;
        if (refreshSeconds < 1) {
            throw new InvalidValueException("refreshSeconds", "must be at least 1");
        }
        defaultRule = defaultRule == null || defaultRule.isBlank() ? DEFAULT_RULE : defaultRule;
        try {
            DefaultRule.compile(defaultRule);
        } catch (IllegalArgumentException e) {
            // the cause's message, without the template again: the error already shows the value
            throw new InvalidValueException("defaultRule", (e.getCause() != null ? e.getCause() : e).getMessage());
        }
        ecsAnywhere = ecsAnywhere != null && ecsAnywhere;
        prefix = prefix == null || prefix.isBlank() ? DEFAULT_PREFIX : prefix;
    }

    /** Whether static keys were given; otherwise the AWS SDK default credential chain is used. */
    public boolean hasStaticCredentials() {
        return !accessKeyID.isEmpty();
    }
}
