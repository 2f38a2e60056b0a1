package dev.proxy.rules;

import dev.proxy.rules.FunctionSet.Function;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A cluster provider's {@code constraints} expression over a container's labels:
 * {@code Label(`k`, `v`)} is true if label {@code k} equals {@code v}; {@code LabelRegex(`k`, `re`)} if its value
 * matches the regular expression somewhere (RE2 syntax, unanchored). A missing label counts as {@code ""}, so
 * {@code Label(`k`, ``)} means "k is absent or empty". Combined with {@code &&}, {@code ||}, {@code !} and
 * parentheses. An empty (or blank) expression accepts everything.
 */
public final class LabelConstraint implements Predicate<Map<String, String>> {

    private static final String NOUN = "constraint expression";
    private static final FunctionSet<Map<String, String>> FUNCTIONS = new FunctionSet<>(NOUN, "function",
            new Function<>("Label", 2, 2, true, args -> {
                String key = args.get(0);
                String value = args.get(1);
                return labels -> value.equals(valueOf(labels, key));
            }),
            new Function<>("LabelRegex", 2, 2, true, args -> {
                String key = args.get(0);
                Regex re = Regex.compile(args.get(1));
                return labels -> re.find(valueOf(labels, key));
            }));

    private final String expression;
    private final Predicate<Map<String, String>> predicate;

    private LabelConstraint(String expression, Predicate<Map<String, String>> predicate) {
        this.expression = expression;
        this.predicate = predicate;
    }

    /**
     * Compiles a constraints expression.
     *
     * @throws RuleSyntaxException if it does not parse or uses an unknown function or an invalid argument
     */
    public static LabelConstraint compile(String expression) {
        return new LabelConstraint(expression,
                expression.isBlank() ? labels -> true : FUNCTIONS.compile(expression));
    }

    /** True if a container with these labels passes the constraint. */
    @Override
    public boolean test(Map<String, String> labels) {
        return predicate.test(labels);
    }

    private static String valueOf(Map<String, String> labels, String key) {
        String value = labels.get(key); // null for a missing key and for a map holding null
        return value == null ? "" : value;
    }

    /** The expression as written. */
    @Override
    public String toString() {
        return expression;
    }
}
