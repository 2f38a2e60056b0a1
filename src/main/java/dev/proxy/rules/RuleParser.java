package dev.proxy.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the expression language shared by router rules and provider constraints (Traefik v3 syntax):
 *
 * <pre>
 * expr    = and { "||" and }
 * and     = unary { "&amp;&amp;" unary }
 * unary   = "!" unary | "(" expr ")" | call
 * call    = name "(" [ string { "," string } ] ")"
 * string  = "`" any character but "`" "`"  |  '"' { character | '\"' | '\\' } '"'
 * </pre>
 *
 * <p>Whitespace (space, tab, CR, LF) may appear between any two tokens. Names are ASCII letters, digits and
 * {@code _}, not starting with a digit; whether a name is a known function is the compiler's business
 * ({@link HttpRule}, {@link TagConstraint}, {@link LabelConstraint}).
 *
 * <p>Expressions come from untrusted discovery tags, so the parser is total and bounded: any input either gives
 * an {@link Expr} or a {@link RuleSyntaxException}; input longer than {@value #MAX_LENGTH} characters or nested
 * deeper than {@value #MAX_DEPTH} levels (parentheses and {@code !} together) is rejected before it can cost
 * memory or stack.
 */
public final class RuleParser {

    /** Longest accepted expression, in characters. */
    public static final int MAX_LENGTH = 8192;
    /** Deepest accepted nesting of parentheses and {@code !}. */
    public static final int MAX_DEPTH = 64;

    private static final int MAX_TOKEN_SHOWN = 32;

    private enum Kind { NAME, STRING, LPAREN, RPAREN, COMMA, AND, OR, NOT, END }

    private record Token(Kind kind, String text, int column) {
    }

    private final String src;
    private final String noun;
    private int pos;
    private Token token;

    private RuleParser(String src, String noun) {
        this.src = src;
        this.noun = noun;
    }

    /**
     * Parses a router rule.
     *
     * @throws RuleSyntaxException if the rule is empty, too long, too deep or malformed
     */
    public static Expr parse(String rule) {
        return parse(rule, "rule");
    }

    /** Parses {@code text}; {@code noun} names it in error messages ("rule", "constraint expression"). */
    static Expr parse(String text, String noun) {
        if (text.length() > MAX_LENGTH) {
            throw new RuleSyntaxException(
                    noun + " is " + text.length() + " characters long, the limit is " + MAX_LENGTH, 0, noun, null);
        }
        if (text.isBlank()) {
            throw new RuleSyntaxException(noun + " is empty", 0, noun, null);
        }
        RuleParser parser = new RuleParser(text, noun);
        parser.advance();
        Expr expr = parser.or(0);
        if (parser.token.kind != Kind.END) {
            throw parser.unexpected();
        }
        return expr;
    }

    // ---- grammar ----

    private Expr or(int depth) {
        Expr first = and(depth);
        if (token.kind != Kind.OR) {
            return first;
        }
        List<Expr> operands = new ArrayList<>();
        operands.add(first);
        while (token.kind == Kind.OR) {
            advance();
            operands.add(and(depth));
        }
        return new Expr.Or(operands);
    }

    private Expr and(int depth) {
        Expr first = unary(depth);
        if (token.kind != Kind.AND) {
            return first;
        }
        List<Expr> operands = new ArrayList<>();
        operands.add(first);
        while (token.kind == Kind.AND) {
            advance();
            operands.add(unary(depth));
        }
        return new Expr.And(operands);
    }

    private Expr unary(int depth) {
        Token start = token;
        switch (start.kind) {
            case NOT -> {
                enter(depth, start);
                advance();
                return new Expr.Not(unary(depth + 1));
            }
            case LPAREN -> {
                enter(depth, start);
                advance();
                Expr inner = or(depth + 1);
                if (token.kind != Kind.RPAREN) {
                    throw token.kind == Kind.END ? error("missing ')' for '('", start.column) : unexpected();
                }
                advance();
                return inner;
            }
            case NAME -> {
                return call();
            }
            default -> throw unexpected();
        }
    }

    private Expr call() {
        Token name = token;
        advance();
        if (token.kind != Kind.LPAREN) {
            throw error("expected '(' after '" + name.text + "'", token.column);
        }
        advance();
        List<String> args = new ArrayList<>();
        if (token.kind == Kind.RPAREN) {
            advance();
            return new Expr.Call(name.text, args, name.column);
        }
        while (true) {
            if (token.kind != Kind.STRING) {
                throw token.kind == Kind.END
                        ? error("missing ')' for '" + name.text + "('", name.column)
                        : error("expected a string in backticks or double quotes, found " + shown(token), token.column);
            }
            args.add(token.text);
            advance();
            if (token.kind == Kind.RPAREN) {
                advance();
                return new Expr.Call(name.text, args, name.column);
            }
            if (token.kind != Kind.COMMA) {
                throw token.kind == Kind.END
                        ? error("missing ')' for '" + name.text + "('", name.column)
                        : error("expected ',' or ')' after an argument, found " + shown(token), token.column);
            }
            advance();
        }
    }

    private void enter(int depth, Token at) {
        if (depth >= MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH + " levels", at.column);
        }
    }

    // ---- tokens ----

    private void advance() {
        while (pos < src.length() && isSpace(src.charAt(pos))) {
            pos++;
        }
        int start = pos;
        int column = start + 1;
        if (pos >= src.length()) {
            token = new Token(Kind.END, "", column);
            return;
        }
        char c = src.charAt(pos);
        switch (c) {
            case '(' -> token = single(Kind.LPAREN, column);
            case ')' -> token = single(Kind.RPAREN, column);
            case ',' -> token = single(Kind.COMMA, column);
            case '!' -> token = single(Kind.NOT, column);
            case '&', '|' -> {
                if (pos + 1 < src.length() && src.charAt(pos + 1) == c) {
                    pos += 2;
                    token = new Token(c == '&' ? Kind.AND : Kind.OR, c == '&' ? "&&" : "||", column);
                } else {
                    throw error("expected '" + c + c + "', found a single '" + c + "'", column);
                }
            }
            case '`' -> token = rawString(column);
            case '"' -> token = quotedString(column);
            case '\'' -> throw error("single quotes are not allowed, use backticks or double quotes", column);
            default -> {
                if (isNameStart(c)) {
                    pos++;
                    while (pos < src.length() && isNamePart(src.charAt(pos))) {
                        pos++;
                    }
                    token = new Token(Kind.NAME, src.substring(start, pos), column);
                } else {
                    throw error("unexpected character " + describe(src.codePointAt(pos)), column);
                }
            }
        }
    }

    private Token single(Kind kind, int column) {
        pos++;
        return new Token(kind, src.substring(pos - 1, pos), column);
    }

    private Token rawString(int column) {
        int close = src.indexOf('`', pos + 1);
        if (close < 0) {
            throw error("unterminated string", column);
        }
        String value = src.substring(pos + 1, close);
        pos = close + 1;
        return new Token(Kind.STRING, value, column);
    }

    private Token quotedString(int column) {
        StringBuilder value = new StringBuilder();
        int i = pos + 1;
        while (i < src.length()) {
            char c = src.charAt(i);
            if (c == '"') {
                pos = i + 1;
                return new Token(Kind.STRING, value.toString(), column);
            }
            if (c == '\\') {
                if (i + 1 >= src.length()) {
                    break;
                }
                char next = src.charAt(i + 1);
                if (next != '"' && next != '\\') {
                    // Only the two escapes a rule needs; Go's other escapes (\n, \x41, \u00e9) have no use in
                    // host names, paths or header values and would make two spellings of one rule.
                    throw error("invalid escape sequence '\\" + next + "' (only \\\" and \\\\ are allowed)", i + 1);
                }
                value.append(next);
                i += 2;
            } else {
                value.append(c);
                i++;
            }
        }
        throw error("unterminated string", column);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isNamePart(char c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    // ---- errors ----

    private RuleSyntaxException unexpected() {
        return token.kind == Kind.END
                ? error("unexpected end of " + noun, token.column)
                : error("unexpected token " + shown(token), token.column);
    }

    /** The token as written in the source, shortened: what the user sees in their rule. */
    private String shown(Token t) {
        // t is always the token just read, so it ends where the reader stands
        int start = t.column - 1;
        int end = pos;
        String written = src.substring(start, Math.min(end, start + MAX_TOKEN_SHOWN));
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < written.length(); i++) {
            char c = written.charAt(i);
            sb.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.append(end - start > MAX_TOKEN_SHOWN ? "…'" : "'").toString();
    }

    private static String describe(int codePoint) {
        return Character.isISOControl(codePoint) || !Character.isDefined(codePoint)
                || Character.getType(codePoint) == Character.SURROGATE
                ? String.format("U+%04X", codePoint)
                : "'" + Character.toString(codePoint) + "'";
    }

    private RuleSyntaxException error(String reason, int column) {
        return new RuleSyntaxException(reason, column, noun, src);
    }
}
