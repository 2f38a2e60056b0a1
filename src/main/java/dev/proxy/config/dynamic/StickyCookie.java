package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.Locale;
import java.util.Set;

/**
 * The sticky-session cookie. Its value names the chosen server by an opaque hash, never by its address.
 *
 * @param name     cookie name (default: derived from the service name)
 * @param secure   Secure attribute
 * @param httpOnly HttpOnly attribute
 * @param sameSite none, lax or strict (empty: not sent)
 * @param maxAge   seconds; 0 means a session cookie, negative expires it
 * @param path     cookie path (default /)
 * @param domain   cookie domain
 */
public record StickyCookie(@Nullable String name, @Nullable Boolean secure, @Nullable Boolean httpOnly,
                           @Nullable String sameSite, @Nullable Integer maxAge, @Nullable String path,
                           @Nullable String domain) {

    private static final Set<String> SAME_SITE = Set.of("", "none", "lax", "strict");

    public StickyCookie {
        name = name == null ? "" : name.trim();
        if (!name.isEmpty() && !name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
            throw new InvalidValueException("name", "not a valid cookie name");
        }
        secure = secure != null && secure;
        httpOnly = httpOnly != null && httpOnly;
        sameSite = sameSite == null ? "" : sameSite.trim().toLowerCase(Locale.ROOT);
        if (!SAME_SITE.contains(sameSite)) {
            throw new InvalidValueException("sameSite", "must be none, lax or strict");
        }
        maxAge = maxAge == null ? 0 : maxAge;
        path = path == null || path.isBlank() ? "/" : path;
        domain = domain == null ? "" : domain;
    }
}
