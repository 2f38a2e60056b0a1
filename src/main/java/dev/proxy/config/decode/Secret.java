package dev.proxy.config.decode;

import java.util.Objects;

/**
 * A secret configuration value (token, password, key). Its {@link #toString()} never reveals the value, so a
 * record holding it can be logged or dumped safely; only {@link #reveal()} gives the text to the code that
 * must send it.
 */
public final class Secret {

    private final String value;

    public Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    public String reveal() {
        return value;
    }

    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return "****";
    }
}
