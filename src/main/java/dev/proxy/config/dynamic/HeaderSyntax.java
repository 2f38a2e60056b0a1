package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;

/**
 * Checks header names and values that come from configuration. Tags and labels are written by whoever can register
 * a service, so a value with CR or LF would let them inject headers or split responses (CWE-113); names must be
 * RFC 9110 tokens.
 */
public final class HeaderSyntax {

    private HeaderSyntax() {
    }

    /** An RFC 9110 token: the characters a header name (or a method) may use. */
    public static boolean isToken(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Visible characters, spaces and tabs only: no CR, LF, NUL or other control characters. */
    public static boolean isFieldValue(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    static void checkName(String field, String name) {
        if (!isToken(name)) {
            throw new InvalidValueException(field, "not a valid header name");
        }
    }

    static void checkValue(String field, String value) {
        if (!isFieldValue(value)) {
            throw new InvalidValueException(field, "a header value must not contain control characters (CR, LF, NUL)");
        }
    }
}
