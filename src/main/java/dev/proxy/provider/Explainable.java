package dev.proxy.provider;

import java.util.List;

/**
 * A provider that can say, for every item it saw in its last refresh (a file, a catalog service instance, a task
 * container), whether it is exposed and why not: the answer to "why is my service not routed?", shown by the API
 * at {@code /api/providers/<name>/explain} and by the dashboard.
 */
public interface Explainable {

    /** The provider's name, as in its resources' suffix ({@code file}, {@code registrycatalog}). */
    String name();

    /**
     * The items of the last refresh, in a stable order; empty before the first refresh. (Not {@code explain()}:
     * providers keep their own richer explanation under that name for their tests and logs.)
     */
    List<ExplainedItem> explainItems();
}
