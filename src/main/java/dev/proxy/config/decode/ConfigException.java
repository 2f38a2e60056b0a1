package dev.proxy.config.decode;

/**
 * Invalid configuration. The message is one line naming the source, the key and the value as the user wrote
 * them; secret values are never part of it.
 */
public class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message, null, false, false);
    }

    /** Formats {@code <origin>=<value>: <problem>}, hiding the value when the key is a secret. */
    public static ConfigException at(Origin origin, String value, boolean secret, String problem) {
        String shown = secret ? "****" : value;
        return new ConfigException(origin + "=" + shown + ": " + problem);
    }
}
