package dev.proxy.rules;

import java.util.Locale;
import java.util.function.Predicate;

/**
 * The {@code Host} matcher: the request host equals the rule's host, ignoring case and a trailing dot on either
 * side. {@code *} matches every host; {@code *.example.com} matches hosts with exactly one more label
 * ({@code a.example.com}, not {@code example.com} nor {@code a.b.example.com}).
 *
 * <p>Compares in place: no lower-casing or substring per request.
 */
final class HostMatcher implements Predicate<RequestFacts> {

    private static final Predicate<RequestFacts> ANY = request -> true;

    /** The host without trailing dot, or for a wildcard the suffix including its leading dot. */
    private final String name;
    private final boolean wildcard;

    private HostMatcher(String name, boolean wildcard) {
        this.name = name;
        this.wildcard = wildcard;
    }

    /** @throws IllegalArgumentException if the host is not ASCII or misuses {@code *} */
    static Predicate<RequestFacts> of(String host) {
        for (int i = 0; i < host.length(); i++) {
            if (host.charAt(i) > 0x7f) {
                // Traefik refuses too; an IDN must be written in its punycode (xn--) form, which is what clients send
                throw new IllegalArgumentException(
                        "non-ASCII host '" + host + "'; write internationalised names in their xn-- form");
            }
        }
        if (host.equals("*")) {
            return ANY;
        }
        String lower = stripTrailingDot(host.toLowerCase(Locale.ROOT));
        boolean wildcard = lower.startsWith("*.");
        String name = wildcard ? lower.substring(1) : lower;
        if (name.indexOf('*') >= 0) {
            throw new IllegalArgumentException(
                    "'*' is allowed only alone or as the whole first label, as in *.example.com");
        }
        if (name.isEmpty() || name.equals(".")) {
            throw new IllegalArgumentException("host name is empty");
        }
        return new HostMatcher(name, wildcard);
    }

    @Override
    public boolean test(RequestFacts request) {
        String host = request.host();
        int length = host.length();
        if (length > 0 && host.charAt(length - 1) == '.') {
            length--;
        }
        if (!wildcard) {
            return length == name.length() && regionEquals(host, 0);
        }
        int labelEnd = length - name.length(); // name is ".example.com"
        return labelEnd > 0
                && regionEquals(host, labelEnd)
                && host.lastIndexOf('.', labelEnd - 1) < 0;
    }

    /**
     * {@code name} occurs in {@code host} at {@code offset}, ignoring case. The data plane lower-cases hosts, so
     * the exact comparison almost always decides; the case-insensitive one is a fallback that costs a miss
     * little, as it stops at the first differing character.
     */
    private boolean regionEquals(String host, int offset) {
        return host.startsWith(name, offset) || host.regionMatches(true, offset, name, 0, name.length());
    }

    private static String stripTrailingDot(String host) {
        return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }

    @Override
    public String toString() {
        return wildcard ? "Host(*" + name + ")" : "Host(" + name + ")";
    }
}
