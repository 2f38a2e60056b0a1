package dev.proxy.config.label;

import dev.proxy.config.decode.ConfigEntry;
import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.KeyPath;
import dev.proxy.config.decode.Origin;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.dynamic.DynamicConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads one item's labels (ECS docker labels, Consul tags split at their first {@code =}) into a dynamic
 * configuration, with the same decoder and the same keys as the file provider, lower case allowed.
 *
 * <p>Keys: only {@code <prefix>.http.…} is configuration ({@code <prefix>} and every key segment compared
 * case-insensitively, lists comma separated, {@code true} enables a section); {@code <prefix>.tcp.…} and
 * {@code <prefix>.udp.…} make the item invalid; other keys under the prefix ({@code enable},
 * {@code registrycatalog.connect}, …) belong to the provider and are skipped here, as are keys without the prefix.
 * Traefik's one-server form {@code …loadbalancer.server.<url|port|scheme|weight>} fills the service's only server;
 * {@code loadbalancer.servers} and {@code weighted} services cannot be written as labels (one item is one server; a
 * weighted split comes from {@code loadbalancer.weight}, see {@link ItemMerger}).
 *
 * <p>Labels come from whoever can register a service or run a task, so they are bounded and checked before
 * decoding: at most {@value #MAX_LABELS} keys under the prefix, keys up to {@value #MAX_KEY_LENGTH} and values up to
 * {@value #MAX_VALUE_LENGTH} characters, no control characters (a CR or LF in a value would otherwise reach a header
 * or a log line), and no key given twice in different case.
 */
public final class LabelDecoder {

    public static final int MAX_LABELS = 1000;
    public static final int MAX_KEY_LENGTH = 1024;
    public static final int MAX_VALUE_LENGTH = 8 * 1024;
    private static final int SHOWN_KEY = 256;
    private static final int SHOWN_VALUE = 200;

    private LabelDecoder() {
    }

    /**
     * @param labels          all labels of the item (keys without the prefix are ignored)
     * @param prefix          the provider's prefix, e.g. {@code proxy}
     * @param itemDescription the source part of every error message, naming the item and the kind of key, e.g.
     *                        {@code consul service web-1 tag} or {@code ECS task 3f2a… container app label}
     * @return the item's configuration; empty maps when it has no {@code <prefix>.http} keys
     * @throws ConfigException {@code <itemDescription> <key>=<value>: <problem>} for the first problem found
     */
    public static DynamicConfig decode(Map<String, String> labels, String prefix, String itemDescription) {
        String root = (prefix.endsWith(".") ? prefix : prefix + ".").toLowerCase(Locale.ROOT);
        List<Map.Entry<String, String>> own = new ArrayList<>();
        for (Map.Entry<String, String> label : labels.entrySet()) {
            String key = label.getKey();
            if (key.regionMatches(true, 0, root, 0, root.length())) {
                if (own.size() == MAX_LABELS) {
                    throw new ConfigException(itemDescription + ": more than " + MAX_LABELS + " keys start with \"" + root + "\"");
                }
                own.add(Map.entry(key, Objects.requireNonNullElse(label.getValue(), "")));
            }
        }
        // Sorted, so that the same labels give the same result and the same first error whatever the map's order.
        own.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
        Map<String, String> seen = new HashMap<>();
        List<ConfigEntry> entries = new ArrayList<>();
        for (Map.Entry<String, String> label : own) {
            String key = label.getKey();
            String value = label.getValue();
            Origin origin = new Origin(itemDescription, shown(key, SHOWN_KEY), 0);
            check(origin, key, value);
            String earlier = seen.putIfAbsent(key.toLowerCase(Locale.ROOT), key);
            if (earlier != null) {
                throw fail(origin, value, "the same key as " + earlier + " (keys are case-insensitive)");
            }
            List<String> path = KeyPath.split(key.substring(root.length()));
            String section = path.get(0).toLowerCase(Locale.ROOT);
            if (section.equals("tcp") || section.equals("udp")) {
                throw fail(origin, value, "tcp/udp routing is not supported");
            }
            if (section.equals("http")) {
                entries.add(new ConfigEntry(slice(path, origin, value), new ConfigEntry.Scalar(value), origin));
            }
        }
        return RecordDecoder.decode(DynamicConfig.class, entries);
    }

    private static void check(Origin origin, String key, String value) {
        if (key.length() > MAX_KEY_LENGTH) {
            throw fail(origin, value, "key longer than " + MAX_KEY_LENGTH + " characters");
        }
        if (hasControl(key)) {
            throw fail(origin, value, "control characters are not allowed in a key");
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            throw fail(origin, value, "value longer than " + MAX_VALUE_LENGTH + " characters");
        }
        if (hasControl(value)) {
            // Header injection and log forging through discovery data: nothing in a routing value needs CR, LF or NUL.
            throw fail(origin, value, "control characters (CR, LF, NUL, …) are not allowed in a value");
        }
    }

    /**
     * Rewrites Traefik's "slice as struct" label form {@code services.<s>.loadbalancer.server.<field>} to the
     * model's {@code servers[0].<field>}, and checks the server fields that the decoder keeps as text.
     */
    private static List<String> slice(List<String> path, Origin origin, String value) {
        boolean service = path.size() >= 4 && is(path.get(1), "services");
        if (service && is(path.get(3), "weighted")) {
            throw fail(origin, value, "weighted services cannot be declared in labels; give the services "
                    + "loadbalancer.weight and one router name for a canary split");
        }
        if (!service || path.size() < 5 || !is(path.get(3), "loadbalancer")) {
            return path;
        }
        if (is(path.get(4), "servers")) {
            throw fail(origin, value, "an item is one server: write loadbalancer.server.<url|port|scheme|weight>");
        }
        if (!is(path.get(4), "server")) {
            return path;
        }
        List<String> out = new ArrayList<>(path.subList(0, 4));
        out.add("servers");
        out.add("[0]");
        out.addAll(path.subList(5, path.size()));
        String field = path.size() == 6 ? path.get(5) : "";
        if (is(field, "port") && !isPort(value.trim())) {
            throw fail(origin, value, "not a port (1-65535)");
        }
        if (is(field, "scheme") && !ItemDefaults.SCHEMES.contains(value.trim().toLowerCase(Locale.ROOT))) {
            throw fail(origin, value, "scheme must be one of " + ItemDefaults.SCHEMES);
        }
        return out;
    }

    static boolean isPort(String text) {
        return text.matches("[0-9]{1,5}") && Integer.parseInt(text) >= 1 && Integer.parseInt(text) <= 65535;
    }

    private static boolean is(String segment, String word) {
        return segment.equalsIgnoreCase(word);
    }

    private static ConfigException fail(Origin origin, String value, String problem) {
        return ConfigException.at(origin, shown(value, SHOWN_VALUE), false, problem);
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) && c != '\t') {
                return true;
            }
        }
        return false;
    }

    /** Text safe for one log line: control characters escaped, long text cut. */
    public static String shown(String s, int limit) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        for (; i < s.length() && i < limit; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\0' -> out.append("\\0");
                default -> out.append(Character.isISOControl(c) ? String.format("\\x%02x", (int) c) : String.valueOf(c));
            }
        }
        return i < s.length() ? out + "…" : out.toString();
    }
}
