package dev.proxy.rules;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * An unanchored regular expression in RE2 syntax (the syntax of Go's {@code regexp}, which Traefik users write),
 * matched in time linear in the input.
 *
 * <p>Why RE2/J and not {@code java.util.regex}: patterns come from untrusted discovery tags and are matched
 * against attacker-chosen hosts and paths on every request. A backtracking engine lets one tag such as
 * {@code HostRegexp(`(a+)+$`)} pin a CPU per request (ReDoS) and overflow the stack on long inputs; RE2 cannot.
 * RE2/J does expand counted repetitions at compile time, so {@code ((a{1000}){1000}){1000}} would exhaust the
 * heap: {@link #compile} refuses patterns whose expanded size or group nesting is beyond what any routing
 * pattern needs (Go's own parser refuses them as "expression too large" too).
 */
public final class Regex {

    /** Upper bound on the pattern size once counted repetitions are expanded (in pattern atoms). */
    static final long MAX_EXPANDED_SIZE = 100_000;
    /** Deepest group nesting: RE2/J compiles recursively and overflows the stack at a few thousand. */
    static final int MAX_GROUP_DEPTH = 100;

    private final Pattern pattern;

    private Regex(Pattern pattern) {
        this.pattern = pattern;
    }

    /**
     * Compiles {@code source}.
     *
     * @throws IllegalArgumentException with a readable message if the pattern is invalid or too large
     */
    public static Regex compile(String source) {
        checkSize(source);
        try {
            Regex regex = new Regex(Pattern.compile(source));
            // RE2/J's matcher follows empty-width transitions recursively, so a long chain of them (`${1000}`)
            // overflows the stack at match time. A trial match here finds those before a request can.
            regex.find("");
            regex.find("a/b");
            return regex;
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regular expression: " + e.getDescription());
        } catch (StackOverflowError e) {
            // Degenerate patterns (e.g. `${1000}(?i){2,5}`) that the size estimate does not catch. This runs when
            // configuration is applied, never per request, and the stack unwinds cleanly, so refusing is safe.
            throw new IllegalArgumentException("regular expression too complex");
        }
    }

    /** True if the pattern matches somewhere in {@code input}. */
    public boolean find(CharSequence input) {
        return pattern.matcher(input).find();
    }

    /** True if the pattern matches the whole of {@code input}. */
    public boolean matchesFully(CharSequence input) {
        return pattern.matcher(input).matches();
    }

    /** A matcher over {@code input}, for callers that need the groups (redirectRegex replacements). */
    public com.google.re2j.Matcher matcher(CharSequence input) {
        return pattern.matcher(input);
    }

    /** Named groups and their numbers. */
    public java.util.Map<String, Integer> namedGroups() {
        return pattern.namedGroups();
    }

    public int groupCount() {
        return pattern.groupCount();
    }

    @Override
    public String toString() {
        return pattern.pattern();
    }

    /**
     * Estimates, from above, the size of the pattern with counted repetitions expanded, and its group nesting,
     * without parsing it fully: every literal, escape or character class counts 1, a group counts the sum of its
     * contents, and {@code {n}}, {@code {n,}}, {@code {n,m}} multiply the preceding item. Over-counting (flags,
     * alternations) only makes the bound looser; RE2/J still does the real validation afterwards.
     */
    private static void checkSize(String re) {
        long[] total = new long[MAX_GROUP_DEPTH + 1]; // size of each open group so far
        long last = 0;                               // size of the item a repetition would apply to
        int depth = 0;
        int i = 0;
        int n = re.length();
        while (i < n) {
            char c = re.charAt(i);
            long item = 1;
            switch (c) {
                case '\\' -> i = skipEscape(re, i);
                case '[' -> i = skipClass(re, i);
                case '(' -> {
                    if (++depth > MAX_GROUP_DEPTH) {
                        throw new IllegalArgumentException(
                                "regular expression nests groups deeper than " + MAX_GROUP_DEPTH);
                    }
                    total[depth] = 0;
                    i++;
                    last = 0;
                    continue;
                }
                case ')' -> {
                    item = depth > 0 ? total[depth--] : 0;
                    i++;
                }
                case '{' -> {
                    int close = re.indexOf('}', i);
                    long count = close < 0 ? -1 : repeatCount(re.substring(i + 1, close));
                    if (count >= 0) {
                        // the preceding item is already counted once; add the other count-1 copies
                        total[depth] = saturatedAdd(total[depth], saturatedMul(last, count - 1));
                        last = saturatedMul(last, count);
                        i = close + 1;
                        if (total[depth] > MAX_EXPANDED_SIZE) {
                            throw tooLarge();
                        }
                        continue;
                    }
                    i++;
                }
                default -> i++;
            }
            total[depth] = saturatedAdd(total[depth], item);
            last = item;
            if (total[depth] > MAX_EXPANDED_SIZE) {
                throw tooLarge();
            }
        }
    }

    private static IllegalArgumentException tooLarge() {
        return new IllegalArgumentException(
                "regular expression is too large once repetitions are expanded (limit " + MAX_EXPANDED_SIZE + ")");
    }

    /** {@code n}, {@code n,} or {@code n,m} → the largest count of copies RE2 makes; -1 if not a repetition. */
    private static long repeatCount(String body) {
        int comma = body.indexOf(',');
        String min = comma < 0 ? body : body.substring(0, comma);
        String max = comma < 0 ? body : body.substring(comma + 1);
        if (!isDigits(min) || !(max.isEmpty() || isDigits(max))) {
            return -1;
        }
        // RE2 refuses counts above 1000, so longer digit strings need not be parsed exactly
        long lo = min.length() > 5 ? 100_000 : Long.parseLong(min);
        long hi = max.isEmpty() ? lo + 1 : max.length() > 5 ? 100_000 : Long.parseLong(max);
        return Math.max(Math.max(lo, hi), 1);
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) < '0' || s.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Index after the escape at {@code i}: {@code \x}, {@code \pL}, {@code \p{Greek}}, {@code \x{41}}, {@code \Q…\E}. */
    private static int skipEscape(String re, int i) {
        if (i + 1 >= re.length()) {
            return i + 1;
        }
        char e = re.charAt(i + 1);
        if ((e == 'p' || e == 'P' || e == 'x') && i + 2 < re.length() && re.charAt(i + 2) == '{') {
            int close = re.indexOf('}', i + 3);
            return close < 0 ? re.length() : close + 1;
        }
        if (e == 'Q') {
            // a quoted literal run counts as one item here; its length is bounded by the rule length anyway
            int close = re.indexOf("\\E", i + 2);
            return close < 0 ? re.length() : close + 2;
        }
        return i + 2;
    }

    /** Index after the character class opening at {@code i}, honouring {@code []…]}, {@code [^]…]} and escapes. */
    private static int skipClass(String re, int i) {
        int k = i + 1;
        if (k < re.length() && re.charAt(k) == '^') {
            k++;
        }
        if (k < re.length() && re.charAt(k) == ']') {
            k++;
        }
        while (k < re.length()) {
            char c = re.charAt(k);
            if (c == '\\') {
                k += 2;
            } else if (c == '[' && k + 1 < re.length() && re.charAt(k + 1) == ':') {
                int close = re.indexOf(":]", k + 2);
                k = close < 0 ? k + 1 : close + 2;
            } else if (c == ']') {
                return k + 1;
            } else {
                k++;
            }
        }
        return re.length();
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private static long saturatedMul(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }
}
