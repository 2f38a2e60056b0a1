package dev.proxy.provider;

import java.util.List;

/**
 * One item a provider saw, and what became of it.
 *
 * @param item    what it is, in the provider's words ({@code file dynamic.yml}, {@code web (web-1 on node a)},
 *                {@code cluster prod task 3f2a container app})
 * @param exposed whether it contributes routes
 * @param reason  {@code exposed} (or a summary) when exposed, else exactly why it was skipped
 * @param routers the routers it contributes to (names within the provider), empty when skipped
 */
public record ExplainedItem(String item, boolean exposed, String reason, List<String> routers) {

    public ExplainedItem {
        routers = List.copyOf(routers);
    }

    public static ExplainedItem skipped(String item, String reason) {
        return new ExplainedItem(item, false, reason, List.of());
    }
}
