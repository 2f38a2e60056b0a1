package dev.proxy.rules;

import io.micronaut.core.annotation.Nullable;

/**
 * A rule or constraint expression that cannot be used: it does not parse, or a function in it is unknown,
 * has the wrong number of arguments, or has an invalid argument (regular expression, IP address, path).
 *
 * <p>The message names the 1-based column and quotes the expression (shortened and with control characters
 * escaped, since expressions come from untrusted discovery tags and end up in logs), for example
 * {@code unexpected token '&&' at column 14 in rule "Host(`a`) && && Path(`/`)"}. Callers that want their own
 * wording (the routing core adds the router name) use {@link #reason()} and {@link #column()}.
 */
public final class RuleSyntaxException extends IllegalArgumentException {

    private static final int MAX_QUOTED_LENGTH = 120;

    private final String reason;
    private final int column;

    /**
     * @param reason what is wrong, without position
     * @param column 1-based column of the offending token, or 0 when the error has no position
     * @param noun   what the text is ("rule", "constraint expression")
     * @param text   the expression, or {@code null} to leave it out of the message (empty or oversized input)
     */
    RuleSyntaxException(String reason, int column, String noun, @Nullable String text) {
        super(message(reason, column, noun, text));
        this.reason = reason;
        this.column = column;
    }

    /** What is wrong, without position or quoted text. */
    public String reason() {
        return reason;
    }

    /** The 1-based column of the offending token, or 0 when the error is about the whole expression. */
    public int column() {
        return column;
    }

    private static String message(String reason, int column, String noun, @Nullable String text) {
        StringBuilder sb = new StringBuilder(reason);
        if (column > 0) {
            sb.append(" at column ").append(column);
        }
        if (text != null) {
            sb.append(" in ").append(noun).append(' ');
            quote(sb, text, MAX_QUOTED_LENGTH);
        }
        return sb.toString();
    }

    /** Appends {@code text} in double quotes, escaping quotes, backslashes and control characters. */
    static void quote(StringBuilder sb, String text, int maxLength) {
        sb.append('"');
        int end = Math.min(text.length(), maxLength);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || Character.isISOControl(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
        if (end < text.length()) {
            sb.append("…");
        }
    }
}
