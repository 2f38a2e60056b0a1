package dev.proxy.config.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.RecordDecoder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code api}, {@code metrics} and {@code accessLog} sections: defaults, the internal entry point, bad values. */
class OperationsConfigTest {

    private static InstallConfig decode(String... flags) {
        return RecordDecoder.decode(InstallConfig.class, CommandLineEntries.fromFlags(List.of(flags)));
    }

    @Test
    void absentSectionsMeanOff() {
        InstallConfig c = decode("--entryPoints.web.address=:80");
        assertThat(c.api()).isNull();
        assertThat(c.accessLog()).isNull();
        assertThat(c.metrics()).isEqualTo(MetricsConfig.NONE);
        assertThat(c.metrics().enabled()).isFalse();
        assertThat(c.entryPoints()).containsOnlyKeys("web");
    }

    @Test
    void everyDefault() {
        InstallConfig c = decode("--entryPoints.web.address=:80", "--api", "--metrics.prometheus", "--accessLog");
        assertThat(c.api()).isEqualTo(new ApiConfig(false, true, "/"));
        assertThat(c.metrics()).isEqualTo(new MetricsConfig(
                new PrometheusConfig("proxy", false, true, false, true, List.of(0.1, 0.3, 1.2, 5.0)), false));
        assertThat(c.accessLog()).isEqualTo(new AccessLogConfig("", AccessLogConfig.Format.COMMON, 0,
                AccessLogFieldsConfig.DEFAULT, false));
        AccessLogFieldsConfig.Headers h = c.accessLog().fields().headers();
        assertThat(h.defaultMode()).isEqualTo(AccessLogFieldsConfig.Mode.DROP);
        assertThat(h.dropsAll()).isTrue();
        assertThat(h.modeOf("authorization")).isEqualTo(AccessLogFieldsConfig.Mode.DROP);
        assertThat(h.modeOf("User-Agent")).isEqualTo(AccessLogFieldsConfig.Mode.DROP);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            api without insecure                 | --api                                         | false
            api insecure                         | --api.insecure                                | true
            metrics on the default entry point   | --metrics.prometheus                          | true
            metrics on a named entry point       | --metrics.prometheus.entryPoint=web           | false
            metrics routed by hand               | --metrics.prometheus.manualRouting            | false
            ping                                 | --ping                                        | true
            """)
    void theInternalEntryPointIsCreatedOnlyWhenSomethingIsRoutedThere(String name, String flag, boolean created) {
        InstallConfig c = decode("--entryPoints.web.address=:80", flag);
        assertThat(c.entryPoints().containsKey("proxy")).isEqualTo(created);
        if (created) {
            assertThat(c.entryPoints().get("proxy").address()).isEqualTo(":8080");
        }
    }

    @Test
    void aUserDefinedInternalEntryPointIsKept() {
        InstallConfig c = decode("--entryPoints.proxy.address=127.0.0.1:9000", "--api.insecure");
        assertThat(c.entryPoints().get("proxy").address()).isEqualTo("127.0.0.1:9000");
    }

    @Test
    void headerModesAndBuckets() {
        InstallConfig c = decode("--accessLog.format=json", "--accessLog.fields.headers.defaultMode=keep",
                "--accessLog.fields.headers.names.Authorization=keep", "--accessLog.fields.headers.names.X-Token=redact",
                "--metrics.prometheus.buckets=0.005,0.5,2", "--api.basePath=/ops");
        AccessLogFieldsConfig.Headers h = c.accessLog().fields().headers();
        assertThat(h.modeOf("Authorization")).isEqualTo(AccessLogFieldsConfig.Mode.KEEP);
        assertThat(h.modeOf("x-token")).isEqualTo(AccessLogFieldsConfig.Mode.REDACT);
        assertThat(h.modeOf("Cookie")).isEqualTo(AccessLogFieldsConfig.Mode.REDACT);
        assertThat(h.modeOf("X-Other")).isEqualTo(AccessLogFieldsConfig.Mode.KEEP);
        assertThat(h.modeOf("PROXY-AUTHORIZATION")).isEqualTo(AccessLogFieldsConfig.Mode.REDACT);
        assertThat(h.dropsAll()).isFalse();
        AccessLogFieldsConfig.Headers oneKept = decode("--accessLog.fields.headers.names.User-Agent=keep")
                .accessLog().fields().headers();
        assertThat(oneKept.dropsAll()).isFalse();
        assertThat(oneKept.modeOf("user-agent")).isEqualTo(AccessLogFieldsConfig.Mode.KEEP);
        assertThat(oneKept.modeOf("Authorization")).isEqualTo(AccessLogFieldsConfig.Mode.DROP);
        assertThat(c.metrics().prometheus().buckets()).containsExactly(0.005, 0.5, 2.0);
        assertThat(c.api().basePath()).isEqualTo("/ops/");
        assertThat(c.api().apiPath()).isEqualTo("/ops/api");
        assertThat(c.api().dashboardPath()).isEqualTo("/ops/dashboard");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            buckets out of order  | --metrics.prometheus.buckets=0.5,0.1 | flag --metrics.prometheus.buckets=0.5,0.1: must be positive, finite and increasing
            bucket not a number   | --metrics.prometheus.buckets=fast    | flag --metrics.prometheus.buckets=fast: not a number
            relative base path    | --api.basePath=ops                   | flag --api.basePath=ops: must be a path starting with /
            negative buffering    | --accessLog.bufferingSize=-1         | flag --accessLog.bufferingSize=-1: must not be negative
            unknown format        | --accessLog.format=xml               | flag --accessLog.format=xml: expected one of [common, json]
            unknown header mode   | --accessLog.fields.headers.defaultMode=hide | flag --accessLog.fields.headers.defaultMode=hide: expected one of [keep, drop, redact]
            """)
    void badValuesAreRefusedWithTheKey(String name, String flag, String message) {
        assertThatThrownBy(() -> decode(flag)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void bucketsFromYamlSequences() {
        InstallConfig c = RecordDecoder.decode(InstallConfig.class, dev.proxy.config.decode.YamlEntries.read(
                new java.io.StringReader("metrics:\n  prometheus:\n    buckets: [0.25, 1]\n"), "test"));
        assertThat(c.metrics().prometheus().buckets()).containsExactly(0.25, 1.0);
    }
}
