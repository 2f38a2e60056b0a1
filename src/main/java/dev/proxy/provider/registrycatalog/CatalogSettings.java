package dev.proxy.provider.registrycatalog;

import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.config.label.DefaultRule;
import dev.proxy.rules.RuleSyntaxException;
import dev.proxy.rules.TagConstraint;
import io.micronaut.core.annotation.Nullable;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The provider options that decide what is routed, compiled once: prefix, enable and connect tags, constraints,
 * default rule, strict checks. Shared by the fetch (on the union of a service's tags, to skip reading services that
 * cannot be routed) and the builder (on each instance's own tags).
 */
record CatalogSettings(String prefix, boolean exposedByDefault, DefaultRule defaultRule, TagConstraint constraints,
                       List<String> strictChecks, boolean connectAware, boolean connectByDefault) {

    /** @throws IllegalArgumentException naming the option when the default rule or the constraints do not compile */
    static CatalogSettings of(RegistryCatalogConfig config) {
        TagConstraint constraints;
        try {
            constraints = TagConstraint.compile(config.constraints());
        } catch (RuleSyntaxException e) {
            throw new IllegalArgumentException("providers.registryCatalog.constraints: " + e.getMessage(), e);
        }
        DefaultRule rule;
        try {
            rule = DefaultRule.compile(config.defaultRule());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("providers.registryCatalog." + e.getMessage(), e);
        }
        return new CatalogSettings(config.prefix(), config.exposedByDefault(), rule, constraints, config.strictChecks(),
                config.connectAware(), config.connectByDefault());
    }

    /**
     * The tags that carry configuration, as labels: a tag starting with {@code <prefix>.} and containing {@code =},
     * split at its first {@code =}. Tags without {@code =} serve only constraints. A key given twice keeps its last
     * value, as Consul keeps the tag order.
     */
    Map<String, String> labels(Collection<String> tags) {
        String root = prefix.endsWith(".") ? prefix : prefix + ".";
        Map<String, String> labels = new LinkedHashMap<>();
        for (String tag : tags) {
            int eq = tag.indexOf('=');
            if (eq > 0 && tag.regionMatches(true, 0, root, 0, root.length())) {
                labels.put(tag.substring(0, eq), tag.substring(eq + 1));
            }
        }
        return labels;
    }

    /** The value of the provider key {@code <prefix>.<key>} (case-insensitive), or null. */
    @Nullable String providerLabel(Map<String, String> labels, String key) {
        String full = (prefix.endsWith(".") ? prefix : prefix + ".") + key;
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (e.getKey().equalsIgnoreCase(full)) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * Null when the labels enable the item, else the reason it is not enabled.
     *
     * @throws IllegalArgumentException when {@code <prefix>.enable} is not a boolean
     */
    @Nullable String notEnabled(Map<String, String> labels) {
        String enable = providerLabel(labels, "enable");
        if (enable == null) {
            if (exposedByDefault) {
                return null;
            }
            return "not enabled: exposedByDefault is false and it has no tag " + prefix + ".enable=true"
                    + (labels.isEmpty() ? " (no tag starts with \"" + prefix + ".\": is the prefix right?)" : "");
        }
        return bool(enable, "enable") ? null : "disabled by its tag " + prefix + ".enable=" + enable;
    }

    /**
     * Whether the item is reached over Connect: tag {@code <prefix>.registrycatalog.connect}, else
     * {@code connectByDefault}.
     *
     * @throws IllegalArgumentException when the tag is not a boolean
     */
    boolean connect(Map<String, String> labels) {
        String connect = providerLabel(labels, "registrycatalog.connect");
        return connect == null ? connectByDefault : bool(connect, "registrycatalog.connect");
    }

    /** Tag {@code <prefix>.registrycatalog.canary}. */
    boolean canary(Map<String, String> labels) {
        String canary = providerLabel(labels, "registrycatalog.canary");
        return canary != null && bool(canary, "registrycatalog.canary");
    }

    /**
     * Whether the constraints can be checked on the union of a service's tags: only without {@code !}, because
     * then more tags never make them false, so "false on the union" means "false on every instance".
     */
    boolean constraintsMonotone() {
        return !constraints.toString().contains("!");
    }

    /** Null when the constraints accept the tags, else the reason. */
    @Nullable String constraintFails(Collection<String> tags) {
        return constraints.test(tags) ? null : "the constraints " + constraints + " are false for its tags";
    }

    private boolean bool(String value, String key) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("tag " + prefix + "." + key + "=" + value + ": not a boolean (true or false)");
    }
}
