package dev.proxy.config.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.config.dynamic.ResourceError.Kind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigurationMergerTest {

    // --- builders keeping the table short ---

    private static Router router(String service, String... middlewares) {
        return new Router(List.of("web"), Arrays.asList(middlewares), service, "Path(`/`)", null, null);
    }

    private static Service servers(String url) {
        return new Service(new LoadBalancer(List.of(Server.of(url)), null, null, null, null), null);
    }

    private static Service weighted(String... members) {
        return new Service(null, new Weighted(Arrays.stream(members).map(m -> new WeightedService(m, 1)).toList(), null));
    }

    private static Middleware allow(String range) {
        return new Middleware(new IpAllowList(List.of(range), null, null));
    }

    private static DynamicConfig config(Map<String, Router> routers, Map<String, Service> services,
                                        Map<String, Middleware> middlewares) {
        return new DynamicConfig(new HttpConfig(routers, services, middlewares));
    }

    private static Map<String, DynamicConfig> providers(Object... nameThenConfig) {
        Map<String, DynamicConfig> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenConfig.length; i += 2) {
            m.put((String) nameThenConfig[i], (DynamicConfig) nameThenConfig[i + 1]);
        }
        return m;
    }

    private static final String NAME_WITH_AT =
            "a name defined by a provider must not contain \"@\"; the provider suffix is added for it";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no providers",
                        providers(),
                        MergedConfig.EMPTY),
                Arguments.of("one provider with an empty configuration",
                        providers("file", DynamicConfig.EMPTY),
                        new MergedConfig(Map.of(), Map.of(), Map.of(), List.of())),
                Arguments.of("names and local references are qualified with the provider",
                        providers("file", config(
                                Map.of("web", router("app", "local")),
                                Map.of("app", servers("http://127.0.0.1:9000")),
                                Map.of("local", allow("127.0.0.1/32")))),
                        new MergedConfig(
                                Map.of("web@file", router("app@file", "local@file")),
                                Map.of("app@file", servers("http://127.0.0.1:9000")),
                                Map.of("local@file", allow("127.0.0.1/32")),
                                List.of())),
                Arguments.of("cross-provider references are kept as written, ping@internal included",
                        providers("file", config(
                                Map.of("ping", router("ping@internal", "lan@registrycatalog"),
                                        "api", router("api@registrycatalog")),
                                Map.of(), Map.of())),
                        new MergedConfig(
                                Map.of("ping@file", router("ping@internal", "lan@registrycatalog"),
                                        "api@file", router("api@registrycatalog")),
                                Map.of(), Map.of(), List.of())),
                Arguments.of("weighted members are qualified like router references",
                        providers("file", config(Map.of(),
                                Map.of("canary", weighted("v1", "v2@clustertasks")), Map.of())),
                        new MergedConfig(Map.of(),
                                Map.of("canary@file", weighted("v1@file", "v2@clustertasks")),
                                Map.of(), List.of())),
                Arguments.of("the same names in two providers do not collide",
                        providers(
                                "registrycatalog", config(Map.of("web", router("app")),
                                        Map.of("app", servers("http://127.0.0.1:9001")), Map.of()),
                                "file", config(Map.of("web", router("app")),
                                        Map.of("app", servers("http://127.0.0.1:9000")), Map.of())),
                        new MergedConfig(
                                Map.of("web@file", router("app@file"), "web@registrycatalog", router("app@registrycatalog")),
                                Map.of("app@file", servers("http://127.0.0.1:9000"),
                                        "app@registrycatalog", servers("http://127.0.0.1:9001")),
                                Map.of(), List.of())),
                Arguments.of("a router without a service keeps an empty service for the data plane to reject",
                        providers("file", config(Map.of("web", router("")), Map.of(), Map.of())),
                        new MergedConfig(Map.of("web@file", router("")), Map.of(), Map.of(), List.of())),
                Arguments.of("names containing @ are left out with an error; the rest is merged",
                        providers("file", config(
                                Map.of("ping@internal", router("app"), "web", router("app")),
                                Map.of("app@other", servers("http://127.0.0.1:9000"),
                                        "app", servers("http://127.0.0.1:9000")),
                                Map.of("a@b", allow("10.0.0.0/8")))),
                        new MergedConfig(
                                Map.of("web@file", router("app@file")),
                                Map.of("app@file", servers("http://127.0.0.1:9000")),
                                Map.of(),
                                List.of(new ResourceError(Kind.ROUTER, "ping@internal@file", NAME_WITH_AT),
                                        new ResourceError(Kind.SERVICE, "app@other@file", NAME_WITH_AT),
                                        new ResourceError(Kind.MIDDLEWARE, "a@b@file", NAME_WITH_AT)))),
                Arguments.of("an empty name is an error",
                        providers("file", config(Map.of("", router("app")), Map.of(), Map.of())),
                        new MergedConfig(Map.of(), Map.of(), Map.of(),
                                List.of(new ResourceError(Kind.ROUTER, "@file", "a router needs a name")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void merges(String description, Map<String, DynamicConfig> input, MergedConfig expected) {
        assertThat(ConfigurationMerger.merge(input)).isEqualTo(expected);
    }

    @Test
    void errorsComeInProviderNameOrderWhateverTheInputOrder() {
        DynamicConfig bad = config(Map.of("x@y", router("a")), Map.of(), Map.of());
        MergedConfig merged = ConfigurationMerger.merge(providers("registrycatalog", bad, "file", bad));
        assertThat(merged.errors()).extracting(ResourceError::qualifiedName)
                .containsExactly("x@y@file", "x@y@registrycatalog");
    }

    @Test
    void providerNamesAreLowerCaseWords() {
        assertThatThrownBy(() -> ConfigurationMerger.merge(providers("File", DynamicConfig.EMPTY)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "\"{0}\" in {1} → \"{2}\"")
    @MethodSource("references")
    void qualifiesReferences(String reference, String provider, String expected) {
        assertThat(ConfigurationMerger.qualify(reference, provider)).isEqualTo(expected);
    }

    static Stream<Arguments> references() {
        return Stream.of(
                Arguments.of("app", "file", "app@file"),
                Arguments.of("app@file", "registrycatalog", "app@file"),
                Arguments.of("ping@internal", "file", "ping@internal"),
                Arguments.of("", "file", ""));
    }
}
