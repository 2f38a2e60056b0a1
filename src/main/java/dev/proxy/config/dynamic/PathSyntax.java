package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;

/** Paths from configuration that end up in a request line: absolute, no spaces, no control characters, no query. */
final class PathSyntax {

    private PathSyntax() {
    }

    static void check(String field, String path) {
        if (!path.startsWith("/")) {
            throw new InvalidValueException(field, "must start with /");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= 0x20 || c == 0x7f || c == '?' || c == '#') {
                throw new InvalidValueException(field, "must not contain spaces, control characters, ? or #");
            }
        }
    }
}
