package dev.proxy.config.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.config.decode.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InstallConfigLoaderTest {

    @TempDir
    Path dir;

    private InstallConfig load(Map<String, String> env, String... flags) {
        return new InstallConfigLoader(env, dir, List.of()).load(List.of(flags)).config();
    }

    private void file(String yaml) throws IOException {
        Files.writeString(dir.resolve("proxy.yml"), yaml);
    }

    @Test
    void embeddedDefaultWhenNothingIsGiven() {
        InstallConfig c = load(Map.of());
        assertThat(c.pingEnabled()).isTrue();
        assertThat(c.entryPoints()).containsOnlyKeys("web", "proxy");
        assertThat(c.entryPoints().get("proxy").address()).isEqualTo(":8080");
    }

    @Test
    void pingPresenceEnablesItWithDefaults() throws IOException {
        file("ping: {}\n");
        InstallConfig c = load(Map.of());
        assertThat(c.ping()).isEqualTo(new PingConfig("proxy", false, 503));
        assertThat(c.entryPoints().get("proxy").address()).isEqualTo(":8080");
    }

    @Test
    void noPingKeyMeansDisabledAndNoInternalEntryPoint() {
        InstallConfig c = load(Map.of(), "--entryPoints.web.address=:8000");
        assertThat(c.pingEnabled()).isFalse();
        assertThat(c.entryPoints()).containsOnlyKeys("web");
    }

    @Test
    void bareFlagsAndEnvironment() {
        InstallConfig c = load(Map.of("PROXY_PING", "true", "PROXY_ENTRYPOINTS_WEB_ADDRESS", ":8001"),
                "--ping.manualRouting", "--ping.terminatingStatusCode=204", "--log.level=DEBUG");
        assertThat(c.ping()).isEqualTo(new PingConfig("proxy", true, 204));
        assertThat(c.entryPoints().get("web").address()).isEqualTo(":8001");
        assertThat(c.log().level()).isEqualTo(LogConfig.Level.DEBUG);
    }

    @Test
    void precedenceIsFlagsOverEnvironmentOverFile() throws IOException {
        file("""
                entryPoints:
                  web: {address: ":7000"}
                  admin: {address: ":7001"}
                ping: {entryPoint: admin, terminatingStatusCode: 500}
                """);
        InstallConfig c = load(Map.of("PROXY_ENTRYPOINTS_WEB_ADDRESS", ":7100", "PROXY_PING_TERMINATINGSTATUSCODE", "502"),
                "--ping.terminatingStatusCode=504");
        assertThat(c.entryPoints().get("web").address()).isEqualTo(":7100");
        assertThat(c.entryPoints().get("admin").address()).isEqualTo(":7001");
        assertThat(c.ping()).isEqualTo(new PingConfig("admin", false, 504));
    }

    @Test
    void falseFlagDisablesASectionFromTheFile() throws IOException {
        file("ping: {entryPoint: web}\nentryPoints: {web: {address: ':7000'}}\n");
        assertThat(load(Map.of(), "--ping=false").pingEnabled()).isFalse();
    }

    @Test
    void explicitConfigFileFromFlagOrEnvironment() throws IOException {
        Path other = dir.resolve("other.yml");
        Files.writeString(other, "entryPoints: {x: {address: '127.0.0.1:9000'}}\n");
        assertThat(load(Map.of(), "--configFile=" + other).entryPoints()).containsOnlyKeys("x");
        assertThat(load(Map.of("PROXY_CONFIGFILE", other.toString())).entryPoints()).containsOnlyKeys("x");
    }

    @Test
    void providersWithEveryDefault() {
        InstallConfig c = load(Map.of(), "--providers.clusterTasks=true", "--providers.registryCatalog.endpoint.address=127.0.0.1:9500");
        ClusterTasksConfig ct = c.providers().clusterTasks();
        assertThat(ct.clusters()).containsExactly("default");
        assertThat(ct.refreshSeconds()).isEqualTo(15);
        assertThat(ct.exposedByDefault()).isTrue();
        assertThat(ct.autoDiscoverClusters()).isFalse();
        assertThat(ct.healthyTasksOnly()).isFalse();
        assertThat(ct.ecsAnywhere()).isFalse();
        assertThat(ct.prefix()).isEqualTo("proxy");
        assertThat(ct.defaultRule()).isEqualTo("Host(`{{ normalize .Name }}`)");
        RegistryCatalogConfig rc = c.providers().registryCatalog();
        assertThat(rc.endpoint().address()).isEqualTo("127.0.0.1:9500");
        assertThat(rc.prefix()).isEqualTo("proxy");
        assertThat(rc.refreshInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(rc.strictChecks()).containsExactly("passing", "warning");
        assertThat(rc.exposedByDefault()).isTrue();
        assertThat(rc.watch()).isFalse();
        assertThat(c.providers().file()).isNull();
    }

    @Test
    void listsFromCommaValuesAndYamlSequences() throws IOException {
        file("providers:\n  clusterTasks:\n    clusters: [a, b]\n");
        assertThat(load(Map.of()).providers().clusterTasks().clusters()).containsExactly("a", "b");
        assertThat(load(Map.of(), "--providers.clusterTasks.clusters=x, y").providers().clusterTasks().clusters())
                .containsExactly("x", "y");
    }

    @Test
    void transportDurations() {
        InstallConfig c = load(Map.of(), "--entryPoints.web.address=:1",
                "--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=1m30s",
                "--entryPoints.web.transport.lifeCycle.graceTimeOut=250ms");
        LifeCycleConfig lc = c.entryPoints().get("web").transport().lifeCycle();
        assertThat(lc.requestAcceptGraceTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(lc.graceTimeOut()).isEqualTo(Duration.ofMillis(250));
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("unknown key with suggestion", Map.of(), new String[] {"--entryPoints.web.adress=:8000"},
                        "flag --entryPoints.web.adress=:8000: unknown key \"adress\" (did you mean \"address\"?)"),
                Arguments.of("unknown top-level key", Map.of(), new String[] {"--pingg"},
                        "flag --pingg={}: unknown key \"pingg\" (did you mean \"ping\"?)"),
                Arguments.of("wrong type", Map.of(), new String[] {"--ping.terminatingStatusCode=abc"},
                        "flag --ping.terminatingStatusCode=abc: not an integer"),
                Arguments.of("status out of range", Map.of(), new String[] {"--ping.terminatingStatusCode=99"},
                        "flag --ping.terminatingStatusCode=99: must be an HTTP status between 100 and 599"),
                Arguments.of("invalid address", Map.of(), new String[] {"--entryPoints.web.address=8000"},
                        "flag --entryPoints.web.address=8000: expected [host]:port, for example :8080 or 127.0.0.1:8080"),
                Arguments.of("port too large", Map.of(), new String[] {"--entryPoints.web.address=:70000"},
                        "flag --entryPoints.web.address=:70000: port must be between 0 and 65535"),
                Arguments.of("environment variable", Map.of("PROXY_PING_MANUALROUTING", "yes"), new String[] {},
                        "environment variable PROXY_PING_MANUALROUTING=yes: not a boolean (true or false)"),
                Arguments.of("environment unknown key", Map.of("PROXY_ENTRYPOINT_WEB_ADDRESS", ":1"), new String[] {},
                        "environment variable PROXY_ENTRYPOINT_WEB_ADDRESS=:1: unknown key \"entrypoint\" (did you mean \"entryPoints\"?)"),
                Arguments.of("bad duration", Map.of(), new String[] {"--providers.registryCatalog.refreshInterval=soon"},
                        "flag --providers.registryCatalog.refreshInterval=soon: not a duration (examples: 10s, 1m30s, 250ms, or seconds as an integer)"),
                Arguments.of("bad enum", Map.of(), new String[] {"--log.level=LOUD"},
                        "flag --log.level=LOUD: expected one of [trace, debug, info, warn, error, fatal, panic]"),
                Arguments.of("secret is never echoed", Map.of(), new String[] {"--providers.clusterTasks.secretAccessKey=TOPSECRET"},
                        "flag --providers.clusterTasks.secretAccessKey=****: accessKeyID and secretAccessKey must be given together (or neither, to use the default credential chain)"),
                Arguments.of("access key id is never echoed", Map.of(), new String[] {"--providers.clusterTasks.accessKeyID=AKIATOPSECRET0000001"},
                        "flag --providers.clusterTasks.accessKeyID=****: accessKeyID and secretAccessKey must be given together (or neither, to use the default credential chain)"),
                Arguments.of("constraints that do not parse", Map.of(), new String[] {"--providers.clusterTasks.constraints=Label(`team`)"},
                        "flag --providers.clusterTasks.constraints=Label(`team`): Label takes 2 arguments, got 1 at column 1 in constraint expression \"Label(`team`)\""),
                Arguments.of("defaultRule with an unknown function", Map.of(), new String[] {"--providers.clusterTasks.defaultRule={{ printf .Name }}"},
                        "flag --providers.clusterTasks.defaultRule={{ printf .Name }}: at position 4: unknown function \"printf\" (supported: normalize, lower, upper, trim, trimPrefix, trimSuffix, replace, default, index)"),
                Arguments.of("value given to a section", Map.of(), new String[] {"--ping=yes"},
                        "flag --ping=yes: expected a section (or true to enable it with defaults)"),
                Arguments.of("section given to a value", Map.of(), new String[] {"--log.level.x=1"},
                        "flag --log.level.x=1: unknown key \"x\": the key above it takes a value, not a section"),
                Arguments.of("positional argument", Map.of(), new String[] {"serve"},
                        "argument serve: unexpected; configuration flags look like --ping.entryPoint=web"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputNamesSourceKeyAndValue(String name, Map<String, String> env, String[] flags, String message) {
        assertThatThrownBy(() -> load(env, flags)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void fileErrorsNameFileAndLine() throws IOException {
        file("ping:\n  terminatingStatusCode: nope\n");
        assertThatThrownBy(() -> load(Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage("file " + dir.resolve("proxy.yml") + " line 2: ping.terminatingStatusCode=nope: not an integer");
    }

    @Test
    void brokenYamlIsReportedWithLine() throws IOException {
        file("ping: {\n  entryPoint: [\n");
        assertThatThrownBy(() -> load(Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("file " + dir.resolve("proxy.yml") + " line ").hasMessageContaining("not valid YAML");
    }

    @Test
    void missingExplicitFile() {
        assertThatThrownBy(() -> load(Map.of(), "--configFile=nope.yml")).isInstanceOf(ConfigException.class)
                .hasMessage("configFile nope.yml: no such file");
    }

    @Test
    void secretsNeverAppearInToString() {
        Map<String, String> env = new HashMap<>();
        env.put("PROXY_PROVIDERS_REGISTRYCATALOG_ENDPOINT_TOKEN", "canary-token-123");
        env.put("PROXY_PROVIDERS_CLUSTERTASKS_ACCESSKEYID", "AKIDCANARY");
        env.put("PROXY_PROVIDERS_CLUSTERTASKS_SECRETACCESSKEY", "canary-secret-456");
        InstallConfig c = load(env);
        assertThat(c.providers().registryCatalog().endpoint().token().reveal()).isEqualTo("canary-token-123");
        assertThat(c.toString()).doesNotContain("canary-token-123").doesNotContain("canary-secret-456");
    }
}
