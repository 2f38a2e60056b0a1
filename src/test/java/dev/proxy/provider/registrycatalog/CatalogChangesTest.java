package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.provider.registrycatalog.CatalogClient.CheckState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which services a watch's new answer names, so that a wake-up reads only those. */
class CatalogChangesTest {

    private static final Map<String, List<String>> BASE = Map.of("web", List.of("a"), "api", List.of());

    static Stream<Arguments> services() {
        return Stream.of(
                Arguments.of("equal answers", BASE, null),
                Arguments.of("service added", Map.of("web", List.of("a"), "api", List.of(), "db", List.of()), Set.of("db")),
                Arguments.of("service removed", Map.of("web", List.of("a")), Set.of("api")),
                Arguments.of("tags changed", Map.of("web", List.of("a", "b"), "api", List.of()), Set.of("web")),
                Arguments.of("tags added", Map.of("web", List.of("a"), "api", List.of("x")), Set.of("api")),
                Arguments.of("everything replaced", Map.of("db", List.of()), Set.of("web", "api", "db")),
                Arguments.of("all removed", Map.of(), Set.of("web", "api")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void services(String name, Map<String, List<String>> next, Set<String> changed) {
        assertThat(CatalogChanges.diffServices(BASE, next)).isEqualTo(changed);
    }

    private static final CheckState SERF = new CheckState("n1", "serfHealth", "", "", "passing");
    private static final CheckState WEB = new CheckState("n1", "service:web-1", "web-1", "web", "passing");
    private static final CheckState API = new CheckState("n2", "service:api-1", "api-1", "api", "passing");

    static Stream<Arguments> checks() {
        return Stream.of(
                Arguments.of("equal", List.of(SERF, WEB, API), Set.of()),
                Arguments.of("order only", List.of(API, WEB, SERF), Set.of()),
                Arguments.of("status changed", List.of(SERF, status(WEB, "critical"), API), Set.of("web")),
                Arguments.of("check removed", List.of(SERF, WEB), Set.of("api")),
                Arguments.of("check added", List.of(SERF, WEB, API,
                        new CheckState("n2", "service:db-1", "db-1", "db", "warning")), Set.of("db")),
                Arguments.of("two services", List.of(SERF, status(WEB, "warning"), status(API, "critical")),
                        Set.of("web", "api")),
                Arguments.of("node check changed", List.of(status(SERF, "critical"), WEB, API), null),
                Arguments.of("node check removed", List.of(WEB, API), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void checks(String name, List<CheckState> next, Set<String> changed) {
        assertThat(CatalogChanges.diffChecks(List.of(SERF, WEB, API), next)).isEqualTo(changed);
    }

    @Test
    void takeGivesEverythingFirstThenTheNamedServicesOnce() {
        CatalogChanges changes = new CatalogChanges();
        assertThat(changes.take()).isNull();
        assertThat(changes.take()).isEmpty();
        changes.services(Set.of("web"));
        changes.services(Set.of("api"));
        assertThat(changes.take()).containsExactlyInAnyOrder("web", "api");
        changes.services(Set.of("web"));
        changes.everything();
        assertThat(changes.take()).isNull();
        assertThat(changes.take()).isEmpty();
    }

    private static CheckState status(CheckState c, String status) {
        return new CheckState(c.node(), c.checkId(), c.serviceId(), c.serviceName(), status);
    }
}
