package dev.proxy.config.label;

import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses the Go-template subset of {@link DefaultRule} into a list of expressions and checks it completely (function
 * names, argument counts, argument types), so that rendering can never fail: a bad template is refused when the
 * provider configuration is read, not when the first service shows up.
 */
final class TemplateParser {

    static final int MAX_LENGTH = 4096;
    private static final int MAX_DEPTH = 16;

    /** The values a template can read. */
    record Data(String name, Map<String, String> labels) {
    }

    /** One compiled piece: literal text or an action's pipeline. */
    sealed interface Expr permits Literal, Field, Call {
        Object eval(Data data);

        default boolean isMap() {
            return false;
        }
    }

    /** Text outside actions, and string constants inside them. */
    record Literal(String value) implements Expr {
        @Override
        public Object eval(Data data) {
            return value;
        }
    }

    /** {@code .Name} or {@code .Labels}. */
    enum Field implements Expr {
        NAME, LABELS;

        @Override
        public Object eval(Data data) {
            return this == NAME ? data.name() : data.labels();
        }

        @Override
        public boolean isMap() {
            return this == LABELS;
        }
    }

    /** A function applied to its arguments (a piped value is the last argument). */
    record Call(TemplateFunction function, List<Expr> arguments) implements Expr {
        @Override
        public Object eval(Data data) {
            List<Object> values = new ArrayList<>(arguments.size());
            for (Expr a : arguments) {
                values.add(a.eval(data));
            }
            return function.apply(values);
        }
    }

    private final String src;
    private int pos;
    private int depth;

    private TemplateParser(String src) {
        this.src = src;
    }

    /** @throws IllegalArgumentException naming the 1-based position of the first problem */
    static List<Expr> parse(String template) {
        if (template.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("longer than " + MAX_LENGTH + " characters");
        }
        return new TemplateParser(template).template();
    }

    private List<Expr> template() {
        List<Expr> parts = new ArrayList<>();
        while (pos < src.length()) {
            int open = src.indexOf("{{", pos);
            String text = src.substring(pos, open < 0 ? src.length() : open);
            if (open < 0) {
                addText(parts, text);
                break;
            }
            pos = open + 2;
            // Go's trim markers: "{{- " drops the white space before the action, " -}}" the white space after it.
            if (src.startsWith("-", pos) && pos + 1 < src.length() && isBlank(src.charAt(pos + 1))) {
                text = text.stripTrailing();
                pos++;
            }
            addText(parts, text);
            Expr action = pipeline();
            skipBlanks();
            boolean trimAfter = atTrimClose();
            if (trimAfter) {
                pos++;
            }
            if (!src.startsWith("}}", pos)) {
                throw error(pos, pos >= src.length() ? "unclosed action: \"}}\" expected" : "\"}}\" expected");
            }
            if (action.isMap()) {
                throw error(open, "cannot print .Labels; write index .Labels \"key\"");
            }
            parts.add(action);
            pos += 2;
            while (trimAfter && pos < src.length() && isBlank(src.charAt(pos))) {
                pos++;
            }
        }
        return List.copyOf(parts);
    }

    private static void addText(List<Expr> parts, String text) {
        if (!text.isEmpty()) {
            parts.add(new Literal(text));
        }
    }

    private Expr pipeline() {
        Expr result = command(null);
        while (true) {
            skipBlanks();
            if (pos < src.length() && src.charAt(pos) == '|') {
                pos++;
                result = command(result);
            } else {
                return result;
            }
        }
    }

    /** A function call with its arguments (then {@code piped}, if any, as the last one), or a single value. */
    private Expr command(@Nullable Expr piped) {
        skipBlanks();
        int start = pos;
        if (pos < src.length() && isIdentifierStart(src.charAt(pos))) {
            TemplateFunction function = function(identifier(), start);
            List<Expr> arguments = new ArrayList<>();
            while (!atCommandEnd()) {
                arguments.add(operand());
            }
            if (piped != null) {
                arguments.add(piped);
            }
            return call(function, arguments, start);
        }
        Expr value = operand();
        if (piped != null) {
            throw error(start, "only a function can receive a piped value");
        }
        if (!atCommandEnd()) {
            throw error(pos, "only a function takes arguments");
        }
        return value;
    }

    private Expr operand() {
        skipBlanks();
        int start = pos;
        char c = pos < src.length() ? src.charAt(pos) : '\0';
        if (c == '.') {
            pos++;
            String field = identifier();
            if (pos < src.length() && src.charAt(pos) == '.') {
                throw error(start, "fields of .Labels are read with index .Labels \"key\"");
            }
            if (field.equals("Name")) {
                return Field.NAME;
            }
            if (field.equals("Labels")) {
                return Field.LABELS;
            }
            throw error(start, "unknown field ." + field + " (the fields are .Name and .Labels)");
        }
        if (c == '"') {
            return new Literal(quoted());
        }
        if (c == '`') {
            int end = src.indexOf('`', pos + 1);
            if (end < 0) {
                throw error(start, "unterminated raw string");
            }
            pos = end + 1;
            return new Literal(src.substring(start + 1, end));
        }
        if (c == '(') {
            if (++depth > MAX_DEPTH) {
                throw error(start, "parentheses nested deeper than " + MAX_DEPTH);
            }
            pos++;
            Expr inner = pipeline();
            skipBlanks();
            if (pos >= src.length() || src.charAt(pos) != ')') {
                throw error(pos, "\")\" expected");
            }
            pos++;
            depth--;
            return inner;
        }
        if (isIdentifierStart(c)) {
            // A function name used as an argument is a call without arguments (Go's rule); arity then refuses it.
            return call(function(identifier(), start), List.of(), start);
        }
        throw error(start, pos >= src.length() ? "unclosed action: \"}}\" expected"
                : "expected .Name, .Labels, a \"string\", a function or (");
    }

    private TemplateFunction function(String name, int at) {
        TemplateFunction f = TemplateFunction.byName(name);
        if (f == null) {
            throw error(at, "unknown function \"" + name + "\" (supported: " + String.join(", ", TemplateFunction.names()) + ")");
        }
        return f;
    }

    private Expr call(TemplateFunction function, List<Expr> arguments, int at) {
        String name = function.templateName();
        if (arguments.size() != function.arity()) {
            throw error(at, "function " + name + " takes " + function.arity() + " argument"
                    + (function.arity() == 1 ? "" : "s") + ", got " + arguments.size());
        }
        for (int i = 0; i < arguments.size(); i++) {
            if (arguments.get(i).isMap() != function.takesMap(i)) {
                throw error(at, function.takesMap(i) ? "function " + name + " needs .Labels as argument " + (i + 1)
                        : "function " + name + ": argument " + (i + 1) + " must be a string, not .Labels");
            }
        }
        return new Call(function, List.copyOf(arguments));
    }

    private String quoted() {
        int start = pos;
        StringBuilder out = new StringBuilder();
        pos++;
        while (pos < src.length()) {
            char c = src.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = pos < src.length() ? src.charAt(pos++) : '\0';
            switch (e) {
                case '\\', '"' -> out.append(e);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                default -> throw error(pos - 2, "unsupported escape \\" + e + " (supported: \\\\ \\\" \\n \\t)");
            }
        }
        throw error(start, "unterminated string");
    }

    private String identifier() {
        int start = pos;
        while (pos < src.length() && (isIdentifierStart(src.charAt(pos)) || Character.isDigit(src.charAt(pos)))) {
            pos++;
        }
        if (start == pos) {
            throw error(pos, "a name is expected");
        }
        return src.substring(start, pos);
    }

    private boolean atCommandEnd() {
        skipBlanks();
        return pos >= src.length() || src.charAt(pos) == '|' || src.charAt(pos) == ')'
                || src.startsWith("}}", pos) || atTrimClose();
    }

    private boolean atTrimClose() {
        return src.startsWith("-}}", pos) && pos > 0 && isBlank(src.charAt(pos - 1));
    }

    private void skipBlanks() {
        while (pos < src.length() && isBlank(src.charAt(pos))) {
            pos++;
        }
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isIdentifierStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static IllegalArgumentException error(int at, String problem) {
        return new IllegalArgumentException("at position " + (at + 1) + ": " + problem);
    }
}
