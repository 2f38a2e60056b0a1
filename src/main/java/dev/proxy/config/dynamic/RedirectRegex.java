package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;

/**
 * {@code redirectRegex}: when {@code regex} (RE2 syntax) matches the request URL ({@code scheme://host[:port]/path?query}),
 * redirects to the URL with every match replaced by {@code replacement} ({@code $1}, {@code ${1}}, {@code ${name}}).
 *
 * @param permanent 301/308 instead of 302/307
 */
public record RedirectRegex(@Nullable String regex, @Nullable String replacement, @Nullable Boolean permanent) {

    public RedirectRegex {
        regex = regex == null ? "" : regex;
        if (regex.isEmpty()) {
            throw new InvalidValueException("regex", "redirectRegex needs a regex");
        }
        replacement = replacement == null ? "" : replacement.trim();
        if (replacement.isEmpty()) {
            throw new InvalidValueException("replacement", "redirectRegex needs a replacement");
        }
        HeaderSyntax.checkValue("replacement", replacement); // it becomes the Location header
        permanent = permanent != null && permanent;
    }
}
