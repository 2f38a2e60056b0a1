package dev.proxy.rules;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The functions one kind of expression may call (matchers for router rules, tag or label tests for constraints),
 * and the compiler from a parsed {@link Expr} to a {@link Predicate} over {@code T}.
 *
 * <p>Every name is accepted as written, all lower case, all upper case or in Title case ({@code PathPrefix},
 * {@code pathprefix}, {@code PATHPREFIX}, {@code Pathprefix}), as Traefik accepts them.
 *
 * @param <T> what the compiled predicate tests (a request, a tag set, a label map)
 */
final class FunctionSet<T> {

    /** Builds the predicate of one call from its already counted and checked arguments. */
    @FunctionalInterface
    interface Builder<T> {
        /** @throws IllegalArgumentException with a readable reason if an argument is invalid */
        Predicate<T> build(List<String> args);
    }

    /**
     * One function.
     *
     * @param name       canonical name, used in messages
     * @param minArgs    fewest arguments
     * @param maxArgs    most arguments
     * @param allowEmpty whether an argument may be the empty string
     */
    record Function<T>(String name, int minArgs, int maxArgs, boolean allowEmpty, Builder<T> builder) {
    }

    private final String noun;
    private final String callWord;
    private final Map<String, Function<T>> byName = new HashMap<>();

    /**
     * @param noun     what the expressions are called in messages ("rule", "constraint expression")
     * @param callWord what a function is called in messages ("matcher", "function")
     */
    @SafeVarargs
    FunctionSet(String noun, String callWord, Function<T>... functions) {
        this.noun = noun;
        this.callWord = callWord;
        for (Function<T> f : functions) {
            String lower = f.name().toLowerCase(Locale.ROOT);
            byName.put(f.name(), f);
            byName.put(lower, f);
            byName.put(f.name().toUpperCase(Locale.ROOT), f);
            byName.put(Character.toUpperCase(lower.charAt(0)) + lower.substring(1), f);
        }
    }

    /**
     * Parses {@code text} and compiles it.
     *
     * @throws RuleSyntaxException naming the column of the offending token or call
     */
    Predicate<T> compile(String text) {
        return compile(RuleParser.parse(text, noun), text);
    }

    /** Compiles an already parsed expression; {@code text} is its source, quoted in error messages. */
    Predicate<T> compile(Expr expr, String text) {
        // recursion depth is bounded by RuleParser.MAX_DEPTH
        if (expr instanceof Expr.And and) {
            return new AllOf<>(compileAll(and.operands(), text));
        }
        if (expr instanceof Expr.Or or) {
            return new AnyOf<>(compileAll(or.operands(), text));
        }
        if (expr instanceof Expr.Not not) {
            return compile(not.operand(), text).negate();
        }
        return call((Expr.Call) expr, text);
    }

    private Predicate<T>[] compileAll(List<Expr> operands, String text) {
        @SuppressWarnings("unchecked")
        Predicate<T>[] compiled = new Predicate[operands.size()];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = compile(operands.get(i), text);
        }
        return compiled;
    }

    private Predicate<T> call(Expr.Call call, String text) {
        Function<T> f = byName.get(call.name());
        if (f == null) {
            throw new RuleSyntaxException("unknown " + callWord + " '" + call.name() + "'", call.column(), noun, text);
        }
        int count = call.args().size();
        if (count < f.minArgs() || count > f.maxArgs()) {
            String expected = f.minArgs() == f.maxArgs()
                    ? f.minArgs() + (f.minArgs() == 1 ? " argument" : " arguments")
                    : f.minArgs() + " or " + f.maxArgs() + " arguments";
            throw new RuleSyntaxException(
                    f.name() + " takes " + expected + ", got " + count, call.column(), noun, text);
        }
        if (!f.allowEmpty()) {
            for (int i = 0; i < count; i++) {
                if (call.args().get(i).isEmpty()) {
                    throw new RuleSyntaxException(
                            f.name() + ": argument " + (i + 1) + " is empty", call.column(), noun, text);
                }
            }
        }
        try {
            return f.builder().build(call.args());
        } catch (IllegalArgumentException e) {
            throw new RuleSyntaxException(f.name() + ": " + e.getMessage(), call.column(), noun, text);
        }
    }

    /** And over an array: no iterator, no boxing, short-circuits in source order. */
    private record AllOf<T>(Predicate<T>[] operands) implements Predicate<T> {
        @Override
        public boolean test(T t) {
            for (Predicate<T> p : operands) {
                if (!p.test(t)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Or over an array, short-circuiting in source order. */
    private record AnyOf<T>(Predicate<T>[] operands) implements Predicate<T> {
        @Override
        public boolean test(T t) {
            for (Predicate<T> p : operands) {
                if (p.test(t)) {
                    return true;
                }
            }
            return false;
        }
    }
}
