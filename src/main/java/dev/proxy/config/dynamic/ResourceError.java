package dev.proxy.config.dynamic;

/**
 * A resource that could not be taken into the merged configuration, with the reason, so that the API can show it
 * as "disabled: …" and the log can name it.
 *
 * @param kind          router, service, middleware, TLS options or TLS store
 * @param qualifiedName the resource's name with its provider, {@code name@provider}
 * @param message       why it was left out
 */
public record ResourceError(Kind kind, String qualifiedName, String message) {

    /** The kinds of named dynamic resources. */
    public enum Kind {
        ROUTER, SERVICE, MIDDLEWARE, TLS_OPTIONS, TLS_STORE;

        /** Lower-case words for messages: {@code router web@file: …}, {@code tls options default: …}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }

    @Override
    public String toString() {
        return kind.word() + " " + qualifiedName + ": " + message;
    }
}
