package dev.proxy.rules;

import java.util.List;

/**
 * The parsed form of a rule or constraint expression: function calls combined with and, or and not.
 *
 * <p>Immutable. {@link #toString()} gives a canonical text that parses back to an equal tree (apart from
 * {@link Call#column()}): every {@code &&}/{@code ||} group is parenthesised, so precedence is visible, and
 * arguments are in backticks unless they contain one.
 */
public sealed interface Expr permits Expr.And, Expr.Or, Expr.Not, Expr.Call {

    /** True when every operand is true; written {@code a && b && c}. Has at least two operands. */
    record And(List<Expr> operands) implements Expr {
        public And {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("And needs at least two operands");
            }
        }

        @Override
        public String toString() {
            return join(operands, " && ");
        }
    }

    /** True when some operand is true; written {@code a || b || c}. Has at least two operands. */
    record Or(List<Expr> operands) implements Expr {
        public Or {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("Or needs at least two operands");
            }
        }

        @Override
        public String toString() {
            return join(operands, " || ");
        }
    }

    /** Negation; written {@code !a}. */
    record Not(Expr operand) implements Expr {
        @Override
        public String toString() {
            return "!" + operand;
        }
    }

    /**
     * A function call such as {@code Host(`example.com`)}, with the name as written and the unquoted arguments.
     *
     * @param column 1-based column of the name in the source text, for error messages
     */
    record Call(String name, List<String> args, int column) implements Expr {
        public Call {
            args = List.copyOf(args);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(name).append('(');
            for (int i = 0; i < args.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                String arg = args.get(i);
                if (arg.indexOf('`') < 0) {
                    sb.append('`').append(arg).append('`');
                } else {
                    sb.append('"').append(arg.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
                }
            }
            return sb.append(')').toString();
        }
    }

    private static String join(List<Expr> operands, String operator) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < operands.size(); i++) {
            if (i > 0) {
                sb.append(operator);
            }
            sb.append(operands.get(i));
        }
        return sb.append(')').toString();
    }
}
