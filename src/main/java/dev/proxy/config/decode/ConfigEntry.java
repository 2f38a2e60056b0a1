package dev.proxy.config.decode;

import java.util.List;
import java.util.Locale;

/**
 * One flattened configuration value: a path of key segments and a value. Every source (YAML file, flags,
 * environment variables, tags, labels) is reduced to a list of these, so that one decoder serves them all.
 * A list index is a segment of its own written {@code [n]}.
 */
public record ConfigEntry(List<String> path, Value value, Origin origin) {

    public ConfigEntry {
        path = List.copyOf(path);
    }

    /** The value of an entry. */
    public sealed interface Value permits Scalar, Sequence, Section {
    }

    /** A single value as text; typed by the decoder. */
    public record Scalar(String text) implements Value {
    }

    /** A list of scalar values given as a list (YAML sequence); never split on commas. */
    public record Sequence(List<String> items) implements Value {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** An empty section such as {@code ping: {}} or a bare {@code --ping}: present, all defaults. */
    public record Section() implements Value {
    }

    public ConfigEntry tail() {
        return new ConfigEntry(path.subList(1, path.size()), value, origin);
    }

    public String head() {
        return path.get(0);
    }

    /** Path compared case-insensitively: keys are matched the way Traefik users expect (tags are lower case). */
    public boolean pathStartsWith(List<String> prefix) {
        if (prefix.size() > path.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            if (!prefix.get(i).equalsIgnoreCase(path.get(i))) {
                return false;
            }
        }
        return true;
    }

    public String valueText() {
        if (value instanceof Scalar s) {
            return s.text();
        }
        if (value instanceof Sequence s) {
            return String.join(",", s.items());
        }
        return "{}";
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
