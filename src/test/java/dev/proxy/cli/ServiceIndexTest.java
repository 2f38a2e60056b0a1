package dev.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.config.install.InstallConfigLoader;
import io.micronaut.core.io.service.SoftServiceLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build-time index of Micronaut's services. (Installing it is global to a JVM, so it is exercised by the packaged
 * program's integration tests; here its parts.)
 */
class ServiceIndexTest {

    private static final String DEFINITIONS = ServiceIndex.BEAN_DEFINITIONS;

    @Test
    void groupsTheIndexByServiceAndLeavesOutSkippedPackagesBeanDefinitionsOnly() throws IOException {
        String index = String.join("\n",
                DEFINITIONS + "/io.micronaut.aws.sdk.v2.$AwsConfig$Definition",
                DEFINITIONS + "/dev.proxy.server.$ProxyServer$Definition",
                "io.micronaut.core.beans.BeanIntrospectionReference/io.micronaut.aws.$Thing$Introspection",
                "not an entry",
                "trailing/",
                DEFINITIONS + "/io.micronaut.http.server.$Router$Definition");
        Map<String, List<String>> parsed = ServiceIndex.parse(
                new ByteArrayInputStream(index.getBytes(StandardCharsets.UTF_8)),
                List.of("io.micronaut.aws.", "io.micronaut.http.server."));
        assertThat(parsed).containsExactly(
                Map.entry(DEFINITIONS, List.of("dev.proxy.server.$ProxyServer$Definition")),
                Map.entry("io.micronaut.core.beans.BeanIntrospectionReference",
                        List.of("io.micronaut.aws.$Thing$Introspection")));
    }

    @Test
    void providersAreTheServicesFileThenTheIndexEachOnceAndLoadableOnly(@TempDir Path dir) throws IOException {
        Path services = dir.resolve("META-INF/services/test.Service");
        Files.createDirectories(services.getParent());
        Files.writeString(services, "# providers\njava.util.ArrayList  # the first\n\n");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            var loaders = ServiceIndex.loaders(loader,
                    Map.of("test.Service", List.of("java.util.LinkedList", "no.such.Provider", "java.util.ArrayList")));
            @SuppressWarnings("unchecked")
            var found = (SoftServiceLoader.StaticServiceLoader<Object>) loaders.get("test.Service");
            assertThat(found.load(null)).extracting(Object::getClass)
                    .containsExactly(ArrayList.class, LinkedList.class);
            assertThat(found.findAll(name -> !name.endsWith("ArrayList")).map(SoftServiceLoader.StaticDefinition::getName))
                    .containsExactly("java.util.LinkedList");
        }
    }

    @Test
    void everyServiceNameHasALoaderSoThatMicronautNeverScansTheJar() {
        var loaders = ServiceIndex.loaders(getClass().getClassLoader(), Map.of());
        assertThat(loaders.containsKey("io.micronaut.context.env.PropertySourceLoader")).isTrue();
        // with no index entries, still the META-INF/services providers of the class path
        assertThat(loaders.get("io.micronaut.context.env.PropertySourceLoader").load(null)).isNotEmpty();
        assertThat(loaders.get("unknown.Service").load(null)).isEmpty();
        assertThat(loaders.get(loaders)).isNull();
        assertThat(new TreeMap<>(loaders)).isEmpty();
    }

    @Test
    void servingSkipsMicronautAwsOnlyWithoutTheClusterTasksProvider(@TempDir Path dir) {
        InstallConfigLoader loader = new InstallConfigLoader(Map.of(), dir);
        List<String> without = Serve.unusedModules(loader.load(List.of("--ping")).config());
        List<String> with = Serve.unusedModules(loader.load(List.of("--ping", "--providers.clusterTasks=true")).config());
        assertThat(without).contains("io.micronaut.aws.", "io.micronaut.http.server.", "io.micronaut.management.");
        assertThat(with).doesNotContain("io.micronaut.aws.").contains("io.micronaut.http.server.");
    }
}
