package dev.proxy.config.label;

import java.util.List;
import java.util.Map;

/**
 * The {@code defaultRule} of a label provider: a template that gives a router its rule when the item's labels set
 * none, by default {@code Host(`{{ normalize .Name }}`)}.
 *
 * <p>It is the subset of Go's {@code text/template} (with sprig) that Traefik users write in default rules,
 * evaluated by a small interpreter instead of a general template engine, because the template is rendered for every
 * discovered item and must neither fail nor loop nor reach anything but the item's name and labels.
 *
 * <p><b>Supported</b>
 * <ul>
 *   <li>literal text; actions {@code {{ … }}}, with Go's trim markers <code>{{-</code> and <code>-}}</code>;</li>
 *   <li>fields {@code .Name} (the item's name) and {@code .Labels} (its labels, only as {@code index}'s first
 *       argument);</li>
 *   <li>string constants {@code "…"} (escapes {@code \\ \" \n \t}) and {@code `raw`};</li>
 *   <li>function calls {@code f a b}, parentheses {@code f (g a)}, pipelines {@code a | f b} (the piped value is
 *       the last argument, as in Go);</li>
 *   <li>functions: {@code normalize s}; {@code index .Labels "key"} (missing key: empty); sprig's {@code lower s},
 *       {@code upper s}, {@code trim s} (Unicode white space), {@code trimPrefix prefix s}, {@code trimSuffix suffix s},
 *       {@code replace old new s} (every occurrence), {@code default fallback s} ({@code fallback} when {@code s}
 *       is empty).</li>
 * </ul>
 * Anything else (variables, {@code if}/{@code range}, comments, numbers, other functions, other fields) is refused
 * by {@link #compile} with its position, so a typo fails at start-up instead of silently producing no routers.
 */
public final class DefaultRule {

    private final String template;
    private final List<TemplateParser.Expr> parts;

    private DefaultRule(String template, List<TemplateParser.Expr> parts) {
        this.template = template;
        this.parts = parts;
    }

    /**
     * Parses and checks a template (function names, argument counts and types).
     *
     * @throws IllegalArgumentException {@code defaultRule "<template>": at position N: <problem>}
     */
    public static DefaultRule compile(String template) {
        try {
            return new DefaultRule(template, TemplateParser.parse(template));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("defaultRule \"" + template + "\": " + e.getMessage(), e);
        }
    }

    /**
     * Renders the rule of one item. Never fails; an empty (or blank) result means the item gets no default router.
     *
     * @param name   the {@code .Name} of the item (the raw Consul service name; the normalized ECS name)
     * @param labels the {@code .Labels} of the item
     */
    public String render(String name, Map<String, String> labels) {
        TemplateParser.Data data = new TemplateParser.Data(name, labels);
        StringBuilder out = new StringBuilder();
        for (TemplateParser.Expr part : parts) {
            out.append((String) part.eval(data));
        }
        return out.toString();
    }

    /** The template as written. */
    public String template() {
        return template;
    }

    /**
     * Traefik's {@code normalize}: splits on every code point that is neither a Unicode letter (L*) nor a Unicode
     * number (N*, as Go's {@code unicode.IsNumber}), drops empty parts and joins them with {@code -}:
     * {@code my_svc.v2} gives {@code my-svc-v2}, {@code --a--} gives {@code a}.
     */
    public static String normalize(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean separate = false;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            if (!isLetterOrNumber(cp)) {
                separate = true;
                continue;
            }
            if (separate && !out.isEmpty()) {
                out.append('-');
            }
            separate = false;
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    private static boolean isLetterOrNumber(int cp) {
        if (Character.isLetter(cp)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER;
    }

    @Override
    public String toString() {
        return template;
    }
}
