package dev.proxy.rules;

import dev.proxy.rules.FunctionSet.Function;
import java.util.Collection;
import java.util.function.Predicate;

/**
 * A registry provider's {@code constraints} expression over a service instance's tags:
 * {@code Tag(`t`)} is true if some tag equals {@code t}; {@code TagRegex(`re`)} if some tag matches the regular
 * expression somewhere (RE2 syntax, unanchored); combined with {@code &&}, {@code ||}, {@code !} and parentheses.
 * An empty (or blank) expression accepts everything.
 */
public final class TagConstraint implements Predicate<Collection<String>> {

    private static final String NOUN = "constraint expression";
    private static final FunctionSet<Collection<String>> FUNCTIONS = new FunctionSet<>(NOUN, "function",
            new Function<>("Tag", 1, 1, true, args -> {
                String tag = args.get(0);
                return tags -> tags.contains(tag);
            }),
            new Function<>("TagRegex", 1, 1, true, args -> {
                Regex re = Regex.compile(args.get(0));
                return tags -> {
                    for (String tag : tags) {
                        if (re.find(tag)) {
                            return true;
                        }
                    }
                    return false;
                };
            }));

    private final String expression;
    private final Predicate<Collection<String>> predicate;

    private TagConstraint(String expression, Predicate<Collection<String>> predicate) {
        this.expression = expression;
        this.predicate = predicate;
    }

    /**
     * Compiles a constraints expression.
     *
     * @throws RuleSyntaxException if it does not parse or uses an unknown function or an invalid argument
     */
    public static TagConstraint compile(String expression) {
        return new TagConstraint(expression,
                expression.isBlank() ? tags -> true : FUNCTIONS.compile(expression));
    }

    /** True if an instance with these tags passes the constraint. */
    @Override
    public boolean test(Collection<String> tags) {
        return predicate.test(tags);
    }

    /** The expression as written. */
    @Override
    public String toString() {
        return expression;
    }
}
