package dev.proxy.config.label;

import java.util.List;

/**
 * A resource left out of a label-built configuration, and why; {@code origins} name the items that defined it, so
 * that a provider can log the reason and explain, per item, why its routes are missing.
 *
 * @param resource {@code router <name>}, {@code service <name>} or {@code middleware <name>}
 * @param origins  the items involved, in the words the provider gave them
 * @param message  the whole sentence for the log, naming the resource and the origins
 */
public record Problem(String resource, List<String> origins, String message) {

    public Problem {
        origins = List.copyOf(origins);
    }

    @Override
    public String toString() {
        return message;
    }
}
