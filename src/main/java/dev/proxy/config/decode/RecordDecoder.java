package dev.proxy.config.decode;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes flattened {@link ConfigEntry configuration entries} into configuration records, the one decoder used for
 * the YAML file, flags, environment variables, tags and labels.
 *
 * <p>Rules: record components are matched case-insensitively (tags are usually lower case); a record is absent
 * ({@code null}) when nothing names it, present with defaults for {@code {}}, a bare flag or {@code true}, and
 * absent for {@code false}; a list takes a YAML sequence, a comma-separated value or {@code [n]} items; a map's keys
 * are free names. Defaults and cross-field checks live in each record's compact constructor, which reports a bad
 * field by throwing {@link InvalidValueException}; every problem surfaces as one {@link ConfigException} that names
 * the source, the key and the value.
 */
public final class RecordDecoder {

    private RecordDecoder() {
    }

    /** Decodes the root record; it is always constructed, with defaults when there are no entries. */
    public static <T extends Record> T decode(Class<T> type, List<ConfigEntry> entries) {
        Object result = decodeRecord(type, entries, true);
        return type.cast(result);
    }

    private static Object decode(Type type, List<ConfigEntry> entries) {
        Class<?> raw = rawClass(type);
        if (raw.isRecord()) {
            return decodeRecord(raw, entries, false);
        }
        if (raw == List.class) {
            return decodeList(typeArgument(type, 0), entries);
        }
        if (raw == Map.class) {
            return decodeMap(typeArgument(type, 1), entries);
        }
        return decodeScalar(raw, entries);
    }

    private static Object decodeRecord(Class<?> type, List<ConfigEntry> entries, boolean root) {
        boolean present = root;
        List<ConfigEntry> fields = new ArrayList<>();
        for (ConfigEntry e : entries) {
            if (!e.path().isEmpty()) {
                fields.add(e);
                present = true;
            } else if (e.value() instanceof ConfigEntry.Section) {
                present = true;
            } else if (e.value() instanceof ConfigEntry.Scalar s && s.text().trim().equalsIgnoreCase("true")) {
                present = true;
            } else if (e.value() instanceof ConfigEntry.Scalar s && s.text().trim().equalsIgnoreCase("false")) {
                continue;
            } else {
                throw ConfigException.at(e.origin(), e.valueText(), false,
                        "expected a section (or true to enable it with defaults)");
            }
        }
        if (!present) {
            return null;
        }
        RecordComponent[] components = type.getRecordComponents();
        Map<String, RecordComponent> byName = new LinkedHashMap<>();
        for (RecordComponent c : components) {
            byName.put(c.getName().toLowerCase(Locale.ROOT), c);
        }
        Map<String, List<ConfigEntry>> grouped = new LinkedHashMap<>();
        for (ConfigEntry e : fields) {
            String key = e.head().toLowerCase(Locale.ROOT);
            if (!byName.containsKey(key)) {
                String hint = KeySuggestion.closest(e.head(), byName.values().stream().map(RecordComponent::getName).toList())
                        .map(k -> " (did you mean \"" + k + "\"?)").orElse("");
                throw ConfigException.at(e.origin(), e.valueText(), false, "unknown key \"" + e.head() + "\"" + hint);
            }
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(e.tail());
        }
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            List<ConfigEntry> own = grouped.getOrDefault(components[i].getName().toLowerCase(Locale.ROOT), List.of());
            args[i] = own.isEmpty() ? null : decode(components[i].getGenericType(), own);
        }
        return construct(type, components, args, grouped, entries);
    }

    private static Object construct(Class<?> type, RecordComponent[] components, Object[] args,
                                    Map<String, List<ConfigEntry>> grouped, List<ConfigEntry> all) {
        try {
            Constructor<?> ctor = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof ConfigException ce) {
                throw ce;
            }
            if (e.getCause() instanceof InvalidValueException bad) {
                throw locate(type, bad, grouped, all);
            }
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName(), e);
        }
    }

    /** Finds the entry that supplied the bad field, so the message names the key as the user typed it. */
    private static ConfigException locate(Class<?> type, InvalidValueException bad,
                                          Map<String, List<ConfigEntry>> grouped, List<ConfigEntry> all) {
        String[] fieldPath = bad.field().split("\\.");
        List<ConfigEntry> own = grouped.getOrDefault(fieldPath[0].toLowerCase(Locale.ROOT), List.of());
        List<String> rest = List.of(fieldPath).subList(1, fieldPath.length);
        boolean secret = isSecretField(type, fieldPath[0]);
        for (ConfigEntry e : own) {
            if (e.pathStartsWith(rest)) {
                return ConfigException.at(e.origin(), e.valueText(), secret, bad.getMessage());
            }
        }
        if (!all.isEmpty()) {
            Origin o = all.get(0).origin();
            return new ConfigException(o + ": " + bad.field() + ": " + bad.getMessage());
        }
        return new ConfigException(type.getSimpleName() + "." + bad.field() + ": " + bad.getMessage());
    }

    private static boolean isSecretField(Class<?> type, String field) {
        for (RecordComponent c : type.getRecordComponents()) {
            if (c.getName().equalsIgnoreCase(field)) {
                return c.getType() == Secret.class || c.getType().isRecord() && mentionsSecret(c.getType())
                        || c.getType() == List.class && typeArgument(c.getGenericType(), 0) == Secret.class;
            }
        }
        return false;
    }

    private static boolean mentionsSecret(Class<?> record) {
        return Arrays.stream(record.getRecordComponents()).anyMatch(c -> c.getType() == Secret.class);
    }

    private static List<Object> decodeList(Type element, List<ConfigEntry> entries) {
        Class<?> raw = rawClass(element);
        boolean scalarElements = !raw.isRecord() && raw != List.class && raw != Map.class;
        List<Object> out = new ArrayList<>();
        TreeMap<Integer, List<ConfigEntry>> indexed = new TreeMap<>();
        for (ConfigEntry e : entries) {
            if (e.path().isEmpty()) {
                if (!scalarElements) {
                    throw ConfigException.at(e.origin(), e.valueText(), false, "expected a list of sections");
                }
                List<String> items = e.value() instanceof ConfigEntry.Sequence s ? s.items()
                        : e.value() instanceof ConfigEntry.Scalar s ? splitComma(s.text())
                        : List.of();
                for (String item : items) {
                    out.add(decodeScalar(raw, List.of(new ConfigEntry(List.of(), new ConfigEntry.Scalar(item), e.origin()))));
                }
                continue;
            }
            String head = e.head();
            if (!head.matches("\\[\\d{1,6}]")) {
                throw ConfigException.at(e.origin(), e.valueText(), false, "expected a list index like [0], not \"" + head + "\"");
            }
            indexed.computeIfAbsent(Integer.parseInt(head.substring(1, head.length() - 1)), k -> new ArrayList<>()).add(e.tail());
        }
        for (List<ConfigEntry> item : indexed.values()) {
            Object v = decode(element, item);
            if (v != null) {
                out.add(v);
            }
        }
        return List.copyOf(out);
    }

    private static Map<String, Object> decodeMap(Type valueType, List<ConfigEntry> entries) {
        Map<String, String> spelling = new LinkedHashMap<>();
        Map<String, List<ConfigEntry>> grouped = new LinkedHashMap<>();
        for (ConfigEntry e : entries) {
            if (e.path().isEmpty()) {
                if (e.value() instanceof ConfigEntry.Section) {
                    continue;
                }
                throw ConfigException.at(e.origin(), e.valueText(), false, "expected a section of named entries");
            }
            // Names from environment variables arrive lower case; treat names case-insensitively so that a file's
            // "webSecure" and PROXY_ENTRYPOINTS_WEBSECURE_ADDRESS configure the same entry point.
            String key = e.head().toLowerCase(Locale.ROOT);
            spelling.putIfAbsent(key, e.head());
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(e.tail());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        grouped.forEach((key, own) -> {
            Object v = decode(valueType, own);
            if (v != null) {
                out.put(spelling.get(key), v);
            }
        });
        return out;
    }

    private static Object decodeScalar(Class<?> type, List<ConfigEntry> entries) {
        ConfigEntry e = entries.get(entries.size() - 1);
        if (!e.path().isEmpty()) {
            throw ConfigException.at(e.origin(), e.valueText(), false,
                    "unknown key \"" + e.head() + "\": the key above it takes a value, not a section");
        }
        boolean secret = type == Secret.class;
        String text;
        if (e.value() instanceof ConfigEntry.Section) {
            if (type == Boolean.class || type == boolean.class) {
                return Boolean.TRUE; // a bare boolean flag such as --ping.manualRouting means true
            }
            throw ConfigException.at(e.origin(), "", secret, "a value is required");
        } else if (e.value() instanceof ConfigEntry.Sequence s) {
            throw ConfigException.at(e.origin(), String.join(",", s.items()), secret, "expected a single value, not a list");
        } else {
            text = ((ConfigEntry.Scalar) e.value()).text();
        }
        try {
            return convert(type, text.trim(), text);
        } catch (IllegalArgumentException bad) {
            throw ConfigException.at(e.origin(), text, secret, bad.getMessage());
        }
    }

    private static Object convert(Class<?> type, String trimmed, String raw) {
        if (type == String.class) {
            return raw;
        }
        if (type == Secret.class) {
            return new Secret(raw);
        }
        if (type == Boolean.class || type == boolean.class) {
            if (trimmed.equalsIgnoreCase("true")) {
                return Boolean.TRUE;
            }
            if (trimmed.equalsIgnoreCase("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("not a boolean (true or false)");
        }
        if (type == Integer.class || type == int.class) {
            try {
                return Integer.parseInt(trimmed);
            } catch (NumberFormatException nfe) {
                throw new IllegalArgumentException("not an integer");
            }
        }
        if (type == Long.class || type == long.class) {
            try {
                return Long.parseLong(trimmed);
            } catch (NumberFormatException nfe) {
                throw new IllegalArgumentException("not an integer");
            }
        }
        if (type == Double.class || type == double.class) {
            try {
                double d = Double.parseDouble(trimmed);
                if (Double.isNaN(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException nfe) {
                throw new IllegalArgumentException("not a number");
            }
        }
        if (type == Duration.class) {
            return GoDuration.parse(trimmed);
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equalsIgnoreCase(trimmed)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("expected one of " + Arrays.stream(type.getEnumConstants())
                    .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT)).toList());
        }
        throw new IllegalStateException("no decoder for " + type);
    }

    static List<String> splitComma(String text) {
        List<String> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new IllegalStateException("unsupported configuration type " + type);
    }

    static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[index];
        }
        throw new IllegalStateException("raw collection type in configuration: " + type);
    }
}
