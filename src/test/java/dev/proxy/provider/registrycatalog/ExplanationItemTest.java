package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.provider.ExplainedItem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the API lists what the catalog provider saw (its {@code /api/providers/registrycatalog/explain}). */
class ExplanationItemTest {

    @Test
    void servicesAndInstancesWithTheNamespaceWhenThereAreSeveral() {
        assertThat(new Explanation("registrycatalog", "web", "web-1 on node a", true, "exposed", List.of("web")).item())
                .isEqualTo(new ExplainedItem("web (web-1 on node a)", true, "exposed", List.of("web")));
        assertThat(Explanation.skipped("registrycatalog-ops", "db", "", "not enabled (exposedByDefault=false)").item())
                .isEqualTo(ExplainedItem.skipped("db [registrycatalog-ops]", "not enabled (exposedByDefault=false)"));
    }
}
