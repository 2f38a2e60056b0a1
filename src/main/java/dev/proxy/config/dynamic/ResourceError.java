package dev.proxy.config.dynamic;

/**
 * A resource that could not be taken into the merged configuration, with the reason, so that the API can show it
 * as "disabled: …" and the log can name it.
 *
 * @param kind          router, service or middleware
 * @param qualifiedName the resource's name with its provider, {@code name@provider}
 * @param message       why it was left out
 */
public record ResourceError(Kind kind, String qualifiedName, String message) {

    /** The kinds of named dynamic resources. */
    public enum Kind {
        ROUTER, SERVICE, MIDDLEWARE;

        /** Lower-case word for messages: {@code router web@file: …}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    @Override
    public String toString() {
        return kind.word() + " " + qualifiedName + ": " + message;
    }
}
