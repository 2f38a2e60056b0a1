package dev.proxy.config.decode;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Turns a configuration record (a middleware's options, a provider's section, the whole install configuration) into
 * plain maps, lists and scalars for the API and the start-up dump, the way the user wrote it: absent values left
 * out, durations as {@code 1m30s}, enums in lower case.
 *
 * <p>Secrets never come out: a {@link Secret} is written {@code ****}, and so is any text whose field name says it is
 * a credential (an access key id is a plain string in its record but still identifies an account). Empty secrets
 * stay empty, so an operator can tell "not set" from "set".
 */
public final class ConfigTree {

    public static final String MASK = "****";
    private static final Pattern CREDENTIAL_NAME = Pattern.compile(".*(password|secret|token|accesskey|credential).*");
    private static final Pattern URL_USER_INFO = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#@]*@");

    private ConfigTree() {
    }

    /** The record's components as a map (in declaration order). */
    public static Map<String, Object> of(Record record) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object value = read(c, record);
            if (value == null) {
                continue;
            }
            boolean credential = CREDENTIAL_NAME.matcher(c.getName().toLowerCase(Locale.ROOT)).matches();
            out.put(c.getName(), credential && value instanceof String s ? mask(s) : tree(value));
        }
        return out;
    }

    private static Object tree(Object value) {
        if (value instanceof Secret s) {
            return s.isEmpty() ? "" : MASK;
        }
        if (value instanceof Record r) {
            return of(r);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(tree(v)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), tree(v)));
            return out;
        }
        if (value instanceof Duration d) {
            return GoDuration.format(d);
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        if (value instanceof String s) {
            return withoutUserInfo(s);
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        return String.valueOf(value);
    }

    /** A URL's {@code user:password@} part masked: {@code http://****@host/}. */
    public static String withoutUserInfo(String text) {
        return URL_USER_INFO.matcher(text).replaceFirst("$1" + MASK + "@");
    }

    private static String mask(String s) {
        return s.isEmpty() ? "" : MASK;
    }

    private static Object read(RecordComponent c, Record record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + c.getName() + " of " + record.getClass().getSimpleName(), e);
        }
    }
}
