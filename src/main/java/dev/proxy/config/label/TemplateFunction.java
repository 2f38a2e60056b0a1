package dev.proxy.config.label;

import io.micronaut.core.annotation.Nullable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functions a {@link DefaultRule} template may call: {@code normalize}, Go's {@code index}, and the sprig string
 * functions Traefik users write in a default rule. Argument order follows sprig, so that the piped value (always the
 * last argument) is the string being transformed: {@code {{ .Name | trimPrefix "svc-" }}}.
 */
enum TemplateFunction {

    NORMALIZE("normalize", 1) {
        @Override
        String apply(List<Object> a) {
            return DefaultRule.normalize(text(a, 0));
        }
    },
    LOWER("lower", 1) {
        @Override
        String apply(List<Object> a) {
            return text(a, 0).toLowerCase(Locale.ROOT);
        }
    },
    UPPER("upper", 1) {
        @Override
        String apply(List<Object> a) {
            return text(a, 0).toUpperCase(Locale.ROOT);
        }
    },
    TRIM("trim", 1) {
        @Override
        String apply(List<Object> a) {
            return trimSpace(text(a, 0));
        }
    },
    TRIM_PREFIX("trimPrefix", 2) {
        @Override
        String apply(List<Object> a) {
            String prefix = text(a, 0);
            String s = text(a, 1);
            return s.startsWith(prefix) ? s.substring(prefix.length()) : s;
        }
    },
    TRIM_SUFFIX("trimSuffix", 2) {
        @Override
        String apply(List<Object> a) {
            String suffix = text(a, 0);
            String s = text(a, 1);
            return s.endsWith(suffix) ? s.substring(0, s.length() - suffix.length()) : s;
        }
    },
    REPLACE("replace", 3) {
        @Override
        String apply(List<Object> a) {
            return replaceAll(text(a, 2), text(a, 0), text(a, 1));
        }
    },
    DEFAULT("default", 2) {
        @Override
        String apply(List<Object> a) {
            String given = text(a, 1);
            return given.isEmpty() ? text(a, 0) : given;
        }
    },
    INDEX("index", 2) {
        @Override
        boolean takesMap(int argument) {
            return argument == 0;
        }

        @Override
        String apply(List<Object> a) {
            // Like Go's index on a map[string]string: a missing key gives the zero value, "".
            return ((Map<?, ?>) a.get(0)).get(text(a, 1)) instanceof String value ? value : "";
        }
    };

    private final String templateName;
    private final int arity;

    TemplateFunction(String templateName, int arity) {
        this.templateName = templateName;
        this.arity = arity;
    }

    /** The name used in templates. */
    String templateName() {
        return templateName;
    }

    int arity() {
        return arity;
    }

    /** Whether the given argument is {@code .Labels} (a map) rather than a string. */
    boolean takesMap(int argument) {
        return false;
    }

    abstract String apply(List<Object> arguments);

    static @Nullable TemplateFunction byName(String name) {
        for (TemplateFunction f : values()) {
            if (f.templateName.equals(name)) {
                return f;
            }
        }
        return null;
    }

    static List<String> names() {
        return Arrays.stream(values()).map(TemplateFunction::templateName).toList();
    }

    private static String text(List<Object> arguments, int i) {
        return (String) arguments.get(i);
    }

    /** Go's strings.TrimSpace: Unicode white space, which includes no-break spaces (Java's strip() does not). */
    private static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isSpace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isSpace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static boolean isSpace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85;
    }

    /** Go's strings.ReplaceAll; an empty {@code old} inserts {@code replacement} around every code point. */
    private static String replaceAll(String s, String old, String replacement) {
        if (!old.isEmpty()) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder(replacement);
        s.codePoints().forEach(cp -> out.appendCodePoint(cp).append(replacement));
        return out.toString();
    }
}
