package dev.proxy.config.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Reads configuration entries from long flags ({@code --ping.entryPoint=web}) and from environment variables. */
public final class CommandLineEntries {

    private CommandLineEntries() {
    }

    /**
     * Parses {@code --key.path=value} (a value may be empty or contain {@code =}) and bare {@code --key.path}, which
     * means "present" for a section and {@code true} for a boolean.
     */
    public static List<ConfigEntry> fromFlags(List<String> args) {
        List<ConfigEntry> out = new ArrayList<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new ConfigException("argument " + arg + ": unexpected; configuration flags look like --ping.entryPoint=web");
            }
            String body = arg.substring(2);
            int eq = body.indexOf('=');
            String key = eq < 0 ? body : body.substring(0, eq);
            ConfigEntry.Value value = eq < 0 ? new ConfigEntry.Section() : new ConfigEntry.Scalar(body.substring(eq + 1));
            out.add(new ConfigEntry(KeyPath.split(key), value, Origin.flag(key)));
        }
        return out;
    }

    /**
     * Reads variables named {@code <prefix><KEY>_<KEY>…} ({@code PROXY_ENTRYPOINTS_WEB_ADDRESS}); each underscore
     * separates two keys, and keys are matched case-insensitively, so names given this way (entry points, …) are lower
     * case and cannot contain underscores. Variables listed in {@code ignored} are not configuration keys.
     */
    public static List<ConfigEntry> fromEnvironment(Map<String, String> env, String prefix, List<String> ignored) {
        List<ConfigEntry> out = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String name = e.getKey();
            if (!name.toUpperCase(Locale.ROOT).startsWith(prefix) || ignored.contains(name.toUpperCase(Locale.ROOT))) {
                continue;
            }
            List<String> path = new ArrayList<>();
            for (String part : name.substring(prefix.length()).split("_", -1)) {
                path.add(part.toLowerCase(Locale.ROOT));
            }
            out.add(new ConfigEntry(path, new ConfigEntry.Scalar(e.getValue()), Origin.environment(name)));
        }
        return out;
    }

    /**
     * Layers sources, lowest precedence first. A later value replaces earlier ones at the same key and below it; a
     * later key below an earlier plain value (e.g. {@code ping=false} in a file, {@code --ping.entryPoint} as a flag)
     * replaces that value too. Empty sections never replace anything: {@code --ping} keeps the file's ping settings.
     */
    @SafeVarargs
    public static List<ConfigEntry> layer(List<ConfigEntry>... lowToHigh) {
        List<ConfigEntry> result = new ArrayList<>();
        for (List<ConfigEntry> source : lowToHigh) {
            List<ConfigEntry> kept = new ArrayList<>(result);
            for (ConfigEntry higher : source) {
                if (higher.value() instanceof ConfigEntry.Section) {
                    continue;
                }
                kept.removeIf(lower -> lower.pathStartsWith(higher.path())
                        || higher.pathStartsWith(lower.path()) && lower.value() instanceof ConfigEntry.Scalar);
            }
            kept.addAll(source);
            result = kept;
        }
        return result;
    }
}
