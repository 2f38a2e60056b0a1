package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import dev.proxy.config.decode.Secret;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * {@code basicAuth}: HTTP basic authentication against htpasswd entries.
 *
 * @param users        {@code name:hash} entries; hashes are bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}), apr1
 *                     MD5 ({@code $apr1$}) or SHA1 ({@code {SHA}}). Secrets: a hash in a log helps offline guessing
 * @param usersFile    an htpasswd file (one entry a line, {@code #} comments), merged with {@code users}; only
 *                     honoured from the file provider, since a tag must not make the proxy read local files
 * @param realm        shown by browsers in the login prompt (default {@code proxy})
 * @param removeHeader drop {@code Authorization} before forwarding (default false)
 * @param headerField  a request header that receives the authenticated user name (none by default)
 */
public record BasicAuth(@Nullable List<Secret> users, @Nullable String usersFile, @Nullable String realm,
                        @Nullable Boolean removeHeader, @Nullable String headerField) {

    public static final String DEFAULT_REALM = "proxy";

    public BasicAuth {
        users = users == null ? List.of() : List.copyOf(users);
        usersFile = usersFile == null ? "" : usersFile.trim();
        if (users.isEmpty() && usersFile.isEmpty()) {
            throw new InvalidValueException("users", "basicAuth needs users or a usersFile");
        }
        for (int i = 0; i < users.size(); i++) {
            String entry = users.get(i).reveal();
            int colon = entry.indexOf(':');
            if (colon <= 0 || colon == entry.length() - 1) {
                // the entry itself is not echoed: it holds a password hash
                throw new InvalidValueException("users", "entry " + (i + 1) + " is not name:hash");
            }
        }
        realm = realm == null || realm.isEmpty() ? DEFAULT_REALM : realm;
        if (!HeaderSyntax.isFieldValue(realm) || realm.contains("\"") || realm.contains("\\")) {
            // it is sent inside a quoted string of WWW-Authenticate
            throw new InvalidValueException("realm", "must not contain quotes, backslashes or control characters");
        }
        removeHeader = removeHeader != null && removeHeader;
        headerField = headerField == null ? "" : headerField.trim();
        if (!headerField.isEmpty()) {
            HeaderSyntax.checkName("headerField", headerField);
        }
    }
}
