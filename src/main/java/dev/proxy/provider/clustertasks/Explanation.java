package dev.proxy.provider.clustertasks;

import dev.proxy.provider.ExplainedItem;
import java.util.List;
import java.util.Locale;

/**
 * What became of one task container in the last refresh: exposed (with the routers and services made from it), or
 * skipped and why. Answers "why is my task not routed?" without reading the whole log.
 *
 * @param cluster   the cluster's name
 * @param task      the task's id
 * @param container the container's name
 * @param name      the default service and router name made from the task group and container
 * @param exposed   whether the container serves traffic (some of its routers may still have been left out: see
 *                  {@code detail})
 * @param detail    exposed: its routers and services, and any left out with the reason; skipped: the reason
 */
public record Explanation(String cluster, String task, String container, String name, boolean exposed, String detail) {

    /** As the API lists it: where the container runs, and the detail as the reason. */
    ExplainedItem item() {
        return new ExplainedItem(String.format(Locale.ROOT, "cluster %s task %s container %s (%s)", cluster, task,
                container, name), exposed, detail, List.of());
    }

    /** One line, e.g. {@code cluster prod task 3f2a… container app (service-web-app): skipped: not enabled …}. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "cluster %s task %s container %s (%s): %s: %s", cluster, task, container, name,
                exposed ? "exposed" : "skipped", detail);
    }
}
