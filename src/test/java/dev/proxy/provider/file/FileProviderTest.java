package dev.proxy.provider.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.install.FileProviderConfig;
import dev.proxy.provider.RecordedLogs;
import dev.proxy.provider.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real files in a temporary directory, real file-system events; every change is awaited, never slept on. */
class FileProviderTest {

    private static final Duration RECHECK = Duration.ofMillis(50);

    @TempDir
    Path dir;

    private final RecordingSink sink = new RecordingSink();
    private RecordedLogs logs;
    private FileProvider provider;

    @BeforeEach
    void recordLogs() {
        logs = new RecordedLogs(FileProvider.class);
    }

    @AfterEach
    void stop() {
        if (provider != null) {
            provider.stop();
        }
        logs.close();
    }

    private static String routeTo(String path, String port) {
        return """
                http:
                  routers:
                    web:
                      rule: "Path(`%s`)"
                      service: app
                  services:
                    app:
                      loadBalancer:
                        servers:
                          - url: http://127.0.0.1:%s
                """.formatted(path, port);
    }

    private static DynamicConfig expectedRouteTo(String path, String port) {
        return new DynamicConfig(new HttpConfig(
                Map.of("web", new Router(null, null, "app", "Path(`" + path + "`)", null, null)),
                Map.of("app", new Service(new LoadBalancer(List.of(Server.of("http://127.0.0.1:" + port)),
                        null, null, null, null), null)),
                Map.of()));
    }

    private Path write(String name, String yaml) throws IOException {
        return Files.writeString(dir.resolve(name), yaml);
    }

    private void startFile(String name, boolean watch) {
        provider = new FileProvider(new FileProviderConfig(dir.resolve(name).toString(), null, watch), RECHECK, true);
        provider.start(sink);
    }

    private void startDirectory() {
        provider = new FileProvider(new FileProviderConfig(null, dir.toString(), true), RECHECK, true);
        provider.start(sink);
    }

    @Test
    void initialLoadIsPublishedBeforeStartReturns() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        assertThat(sink.configs()).containsExactly(expectedRouteTo("/a", "9001"));
    }

    @Test
    void aResourceInsideTheProgramIsReadOnceAndNotWatched() {
        provider = new FileProvider(new FileProviderConfig("classpath:/dev/proxy/default-dynamic.yml", null, true),
                RECHECK, true);
        provider.start(sink);
        assertThat(sink.configs()).hasSize(1);
        assertThat(sink.latest().http().routers()).containsOnlyKeys("health");
        assertThat(logs.at(Level.INFO)).noneMatch(m -> m.contains("watching"));
    }

    @Test
    void aMissingResourcePublishesAnEmptyConfiguration() {
        provider = new FileProvider(new FileProviderConfig("classpath:/dev/proxy/none.yml", null, true), RECHECK, true);
        provider.start(sink);
        assertThat(sink.latest()).isEqualTo(DynamicConfig.EMPTY);
    }

    @Test
    void anEditIsPublished() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        write("dynamic.yml", routeTo("/b", "9002"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/b", "9002")));
    }

    @Test
    void aFileReplacedByRenameIsPublished() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        Path temp = write("dynamic.yml.tmp", routeTo("/c", "9003"));
        Files.move(temp, dir.resolve("dynamic.yml"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/c", "9003")));
    }

    @Test
    void changesAreFoundByTheRecheckWhenNoEventArrives() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        provider = new FileProvider(new FileProviderConfig(dir.resolve("dynamic.yml").toString(), null, true),
                RECHECK, false);
        provider.start(sink);
        write("dynamic.yml", routeTo("/d", "9004"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/d", "9004")));
    }

    @Test
    void aBrokenEditIsLoggedOnceAndKeepsTheLastGoodConfigurationUntilFixed() throws IOException {
        Path file = write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        write("dynamic.yml", """
                http:
                  routers:
                    web:
                      rulez: "Path(`/b`)"
                """);
        await().atMost(Duration.ofSeconds(10)).until(() -> !logs.at(Level.ERROR).isEmpty());
        // Re-checks run every 50 ms: the problem must still have been logged only once after many of them.
        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2))
                .until(() -> logs.at(Level.ERROR).size() == 1);
        assertThat(logs.at(Level.ERROR).get(0)).isEqualTo("file " + file + " line 4: http.routers.web.rulez="
                + "Path(`/b`): unknown key \"rulez\" (did you mean \"rule\"?); keeping the last good configuration");
        assertThat(sink.configs()).containsExactly(expectedRouteTo("/a", "9001"));

        write("dynamic.yml", routeTo("/b", "9002"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/b", "9002")));
    }

    @Test
    void anEmptyFileIsNeverAppliedSoAnInPlaceRewriteDoesNotDropRoutes() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        write("dynamic.yml", "");
        write("other.yml", routeTo("/x", "9009")); // a later event in the same directory: the empty file was seen
        write("dynamic.yml", routeTo("/b", "9002"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/b", "9002")));
        assertThat(sink.configs()).doesNotContain(DynamicConfig.EMPTY);
    }

    @Test
    void aBadValueAndBrokenYamlNameTheFileAndLine() throws IOException {
        Path file = write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        write("dynamic.yml", routeTo("/a", "99999999999"));
        await().atMost(Duration.ofSeconds(10)).until(() -> logs.at(Level.ERROR).size() == 1);
        assertThat(logs.at(Level.ERROR).get(0)).startsWith("file " + file + " line 10: ")
                .contains("url=http://127.0.0.1:99999999999");
        write("dynamic.yml", "http: [unclosed\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> logs.at(Level.ERROR).size() == 2);
        assertThat(logs.at(Level.ERROR).get(1)).startsWith("file " + file + " line 2: not valid YAML");
        assertThat(sink.configs()).containsExactly(expectedRouteTo("/a", "9001"));
    }

    @Test
    void aBrokenFileAtStartPublishesNothingUntilFixed() throws IOException {
        write("dynamic.yml", "http:\n  routers:\n    web:\n      priority: high\n");
        startFile("dynamic.yml", true);
        assertThat(sink.count()).isZero();
        assertThat(logs.at(Level.ERROR)).singleElement().asString().contains("priority=high: not an integer");
        write("dynamic.yml", routeTo("/a", "9001"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.count() == 1);
        assertThat(sink.latest()).isEqualTo(expectedRouteTo("/a", "9001"));
    }

    @Test
    void aDeletedFilePublishesAnEmptyConfiguration() throws IOException {
        Path file = write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", true);
        Files.delete(file);
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(DynamicConfig.EMPTY));
        assertThat(logs.at(Level.WARN)).singleElement().asString()
                .contains("not found: publishing an empty configuration");
        write("dynamic.yml", routeTo("/a", "9001"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/a", "9001")));
    }

    @Test
    void withoutWatchAChangeIsNotRead() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        startFile("dynamic.yml", false);
        write("dynamic.yml", routeTo("/b", "9002"));
        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).until(() -> sink.count() == 1);
    }

    @Test
    void aDirectoryCombinesItsYamlFilesInNameOrder() throws IOException {
        write("b.yaml", """
                http:
                  routers:
                    api: {rule: "PathPrefix(`/api`)", service: app, middlewares: [lan]}
                  middlewares:
                    lan: {ipAllowList: {sourceRange: [127.0.0.0/8]}}
                """);
        write("a.yml", routeTo("/a", "9001"));
        write("notes.txt", "not: [configuration");
        write(".hidden.yml", "not: [configuration");
        startDirectory();
        HttpConfig http = sink.latest().http();
        assertThat(http.routers()).containsOnlyKeys("web", "api");
        assertThat(http.services()).containsOnlyKeys("app");
        assertThat(http.middlewares()).containsOnlyKeys("lan");
        assertThat(logs.at(Level.ERROR)).isEmpty();
    }

    @Test
    void aNameDefinedInTwoFilesKeepsTheFirstAndWarnsNamingBoth() throws IOException {
        Path first = write("10-app.yml", routeTo("/a", "9001"));
        Path second = write("20-other.yml", routeTo("/b", "9002"));
        startDirectory();
        assertThat(sink.latest()).isEqualTo(expectedRouteTo("/a", "9001"));
        assertThat(logs.at(Level.WARN)).containsExactly(
                "file provider: router \"web\" is defined in " + first + " and again in " + second
                        + ": keeping the definition from " + first,
                "file provider: service \"app\" is defined in " + first + " and again in " + second
                        + ": keeping the definition from " + first);
    }

    @Test
    void aNewFileInTheDirectoryIsPublishedAndItsRemovalToo() throws IOException {
        write("a.yml", routeTo("/a", "9001"));
        startDirectory();
        Path extra = write("b.yml", "http:\n  routers:\n    extra: {rule: \"Path(`/x`)\", service: app}\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().http().routers().containsKey("extra"));
        Files.delete(extra);
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(expectedRouteTo("/a", "9001")));
        Files.delete(dir.resolve("a.yml"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.latest().equals(DynamicConfig.EMPTY));
    }

    @Test
    @Timeout(10)
    void startAfterStopPublishesNothingAndReturns() throws IOException {
        write("dynamic.yml", routeTo("/a", "9001"));
        provider = new FileProvider(new FileProviderConfig(dir.resolve("dynamic.yml").toString(), null, true),
                RECHECK, true);
        provider.stop();
        provider.start(sink);
        assertThat(sink.count()).isZero();
    }

    @Test
    void onlyYamlFilesThatAreNotHiddenCount() {
        assertThat(FileProvider.isConfigFileName("a.yml")).isTrue();
        assertThat(FileProvider.isConfigFileName("b.YAML")).isTrue();
        assertThat(FileProvider.isConfigFileName(".a.yml")).isFalse();
        assertThat(FileProvider.isConfigFileName("a.yml.swp")).isFalse();
        assertThat(FileProvider.isConfigFileName("a.yml~")).isFalse();
        assertThat(FileProvider.isConfigFileName("a.json")).isFalse();
    }
}
