package dev.proxy.server;

/**
 * Brings a request path to the one form used for routing <em>and</em> forwarded to the backend, so the proxy and
 * the backend cannot read one request target two ways (a router protected by auth reached through another spelling
 * of its path). In order:
 * <ol>
 *   <li>Refused (400): raw control characters, backslash, {@code #}, a {@code %} not followed by two hex digits, and
 *       the encoded characters backends disagree about — {@code %2F} (/), {@code %5C} (\), {@code %00},
 *       {@code %3B} (;), {@code %25} (%), {@code %3F} (?), {@code %23} (#) — as Traefik v3 does by default; a
 *       segment whose name before a {@code ;} parameter is empty, {@code .} or {@code ..} (Tomcat-style backends
 *       drop the parameter and would then see a dot segment or a double slash: {@code /..;/admin}).</li>
 *   <li>Percent-encoded unreserved characters (letters, digits, {@code - . _ ~}) are decoded, the others kept
 *       encoded with upper-case hex (RFC 3986 §6.2.2).</li>
 *   <li>Dot segments are resolved (RFC 3986 §5.2.4; {@code ..} never climbs above the root) and empty segments
 *       ({@code //}) are merged, as nginx's {@code merge_slashes} and Traefik do.</li>
 * </ol>
 * Pure and allocation-light: a path that needs no change is returned as it is.
 */
public final class PathNormalizer {

    private PathNormalizer() {
    }

    /** Thrown for a path that is refused; the message says why (it is only logged, never sent to the client). */
    public static final class RejectedPath extends IllegalArgumentException {
        RejectedPath(String reason) {
            super(reason);
        }
    }

    /**
     * @param raw the path of an origin-form request target, without the query; starts with {@code /}
     * @return the normalised path
     * @throws RejectedPath when the path is refused
     */
    public static String normalize(String raw) {
        if (raw.isEmpty() || raw.charAt(0) != '/') {
            throw new RejectedPath("the path does not start with /");
        }
        StringBuilder decoded = null;
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\' || c == '#') {
                throw new RejectedPath("character 0x" + Integer.toHexString(c) + " in the path");
            }
            if (c != '%') {
                if (decoded != null) {
                    decoded.append(c);
                }
                continue;
            }
            if (i + 2 >= n || Character.digit(raw.charAt(i + 1), 16) < 0 || Character.digit(raw.charAt(i + 2), 16) < 0) {
                throw new RejectedPath("a % in the path is not followed by two hex digits");
            }
            int value = Character.digit(raw.charAt(i + 1), 16) * 16 + Character.digit(raw.charAt(i + 2), 16);
            if (isAmbiguous(value)) {
                throw new RejectedPath("encoded character %" + hex(value) + " in the path");
            }
            if (decoded == null) {
                decoded = new StringBuilder(n).append(raw, 0, i);
            }
            if (isUnreserved(value)) {
                decoded.append((char) value);
            } else {
                decoded.append('%').append(hex(value));
            }
            i += 2;
        }
        String path = decoded == null ? raw : decoded.toString();
        return needsSegmentWork(path) ? resolveSegments(path) : path;
    }

    /** The encoded characters refused in a path (see the class comment). */
    private static boolean isAmbiguous(int b) {
        return b == '/' || b == '\\' || b == 0 || b == ';' || b == '%' || b == '?' || b == '#';
    }

    private static boolean isUnreserved(int b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
                || b == '-' || b == '.' || b == '_' || b == '~';
    }

    private static String hex(int b) {
        return new String(new char[] {Character.toUpperCase(Character.forDigit(b >> 4, 16)),
                Character.toUpperCase(Character.forDigit(b & 0xf, 16))});
    }

    /** Whether the path has {@code //}, a {@code .} or {@code ..} segment, or a {@code ;} parameter. */
    private static boolean needsSegmentWork(String path) {
        int n = path.length();
        for (int i = 0; i < n; i++) {
            char c = path.charAt(i);
            if (c == ';') {
                return true;
            }
            if (c == '/' && i + 1 < n) {
                char next = path.charAt(i + 1);
                if (next == '/') {
                    return true;
                }
                if (next == '.') {
                    int end = i + 2;
                    if (end < n && path.charAt(end) == '.') {
                        end++;
                    }
                    if (end == n || path.charAt(end) == '/') {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String resolveSegments(String path) {
        String[] segments = path.substring(1).split("/", -1);
        String[] out = new String[segments.length];
        int depth = 0;
        boolean trailingSlash = false;
        for (int i = 0; i < segments.length; i++) {
            String s = segments[i];
            boolean last = i == segments.length - 1;
            int semi = s.indexOf(';');
            if (semi >= 0) {
                String name = s.substring(0, semi);
                if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                    throw new RejectedPath("path parameter on an empty or dot segment");
                }
            }
            if (s.isEmpty() || s.equals(".")) {
                trailingSlash = last;
            } else if (s.equals("..")) {
                if (depth > 0) {
                    depth--;
                }
                trailingSlash = last;
            } else {
                out[depth++] = s;
                trailingSlash = false;
            }
        }
        StringBuilder b = new StringBuilder(path.length());
        for (int i = 0; i < depth; i++) {
            b.append('/').append(out[i]);
        }
        if (depth == 0 || trailingSlash) {
            b.append('/');
        }
        return b.toString();
    }
}
