package dev.proxy.config.decode;

import java.util.ArrayList;
import java.util.List;

/** Splits dotted keys ({@code http.services.a.loadBalancer.servers[0].url}) into path segments. */
public final class KeyPath {

    private KeyPath() {
    }

    /**
     * Splits on dots; {@code name[3]} yields the segments {@code name} and {@code [3]}. Empty segments are kept so
     * that the decoder reports them as unknown keys instead of silently merging {@code a..b} into {@code a.b}.
     */
    public static List<String> split(String key) {
        List<String> out = new ArrayList<>();
        for (String part : key.split("\\.", -1)) {
            int bracket = part.indexOf('[');
            if (bracket > 0 && part.endsWith("]")) {
                out.add(part.substring(0, bracket));
                out.add(part.substring(bracket));
            } else {
                out.add(part);
            }
        }
        return out;
    }
}
