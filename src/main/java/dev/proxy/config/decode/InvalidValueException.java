package dev.proxy.config.decode;

/**
 * Thrown by the compact constructor of a configuration record when a field's value is not acceptable. The
 * decoder turns it into a {@link ConfigException} naming the source and key where the value came from.
 */
public class InvalidValueException extends IllegalArgumentException {

    private final String field;

    /**
     * @param field   the record component name (or a dotted path below the record) that holds the bad value
     * @param problem what is wrong, without repeating the value
     */
    public InvalidValueException(String field, String problem) {
        super(problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
