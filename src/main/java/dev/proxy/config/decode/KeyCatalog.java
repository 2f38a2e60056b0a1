package dev.proxy.config.decode;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Lists every key a configuration record accepts, for {@code --help}: {@code entryPoints.<name>.address}. */
public final class KeyCatalog {

    private KeyCatalog() {
    }

    public static List<String> keys(Class<? extends Record> root) {
        List<String> out = new ArrayList<>();
        walk(root, "", out);
        return out;
    }

    private static void walk(Type type, String prefix, List<String> out) {
        Class<?> raw = RecordDecoder.rawClass(type);
        if (raw.isRecord()) {
            for (RecordComponent c : raw.getRecordComponents()) {
                String key = prefix.isEmpty() ? c.getName() : prefix + "." + c.getName();
                Class<?> ct = c.getType();
                if (ct.isRecord()) {
                    out.add(key + "  (section; true enables it with defaults)");
                }
                walk(c.getGenericType(), key, out);
            }
        } else if (raw == Map.class) {
            walk(((ParameterizedType) type).getActualTypeArguments()[1], prefix + ".<name>", out);
        } else if (raw == List.class) {
            Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
            if (RecordDecoder.rawClass(element).isRecord()) {
                walk(element, prefix + "[n]", out);
            } else {
                out.add(prefix + "=<" + RecordDecoder.rawClass(element).getSimpleName().toLowerCase() + ",...>");
            }
        } else {
            out.add(prefix + "=<" + describe(raw) + ">");
        }
    }

    private static String describe(Class<?> raw) {
        if (raw.isEnum()) {
            List<String> names = new ArrayList<>();
            for (Object c : raw.getEnumConstants()) {
                names.add(((Enum<?>) c).name().toLowerCase());
            }
            return String.join("|", names);
        }
        if (raw == Secret.class) {
            return "secret";
        }
        return raw.getSimpleName().toLowerCase();
    }
}
