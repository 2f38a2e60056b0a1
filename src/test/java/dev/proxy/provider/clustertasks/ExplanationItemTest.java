package dev.proxy.provider.clustertasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.provider.ExplainedItem;
import org.junit.jupiter.api.Test;

/** How the API lists what the ECS provider saw (its {@code /api/providers/clustertasks/explain}). */
class ExplanationItemTest {

    @Test
    void containersWithWhereTheyRunAndTheDetail() {
        assertThat(new Explanation("prod", "3f2a", "app", "service-web-app", false, "not enabled").item())
                .isEqualTo(ExplainedItem.skipped("cluster prod task 3f2a container app (service-web-app)", "not enabled"));
    }
}
