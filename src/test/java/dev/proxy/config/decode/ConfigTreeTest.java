package dev.proxy.config.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.RedisConfig;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.install.ClusterTasksConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Configuration records as the API and the start-up dump show them: as written, never with a secret. */
class ConfigTreeTest {

    @Test
    void secretsAndCredentialNamedTextAreMaskedEmptyOnesStayEmpty() {
        ClusterTasksConfig aws = new ClusterTasksConfig(null, null, "eu-west-1", new Secret("AKIAEXAMPLE"), new Secret("s3cr3t"),
                null, null, null, null, null, null, null);
        Map<String, Object> tree = ConfigTree.of(aws);
        assertThat(tree).containsEntry("accessKeyID", "****").containsEntry("secretAccessKey", "****")
                .containsEntry("region", "eu-west-1").containsEntry("clusters", List.of("default"))
                .containsEntry("refreshSeconds", 15);
        assertThat(tree.toString()).doesNotContain("AKIAEXAMPLE", "s3cr3t");
        assertThat(aws.toString()).doesNotContain("AKIAEXAMPLE", "s3cr3t");
        ClusterTasksConfig chain = new ClusterTasksConfig(null, null, null, null, null, null, null, null, null, null,
                null, null);
        assertThat(ConfigTree.of(chain)).containsEntry("accessKeyID", "").containsEntry("secretAccessKey", "");
    }

    @Test
    void nestedRecordsDurationsEnumsAndAbsentValues() {
        RedisConfig redis = new RedisConfig(null, null, new Secret("pw"), null, null, null, Duration.ofMillis(1500),
                null, RedisConfig.FailureMode.CLOSED);
        assertThat(ConfigTree.of(redis)).isEqualTo(Map.of("endpoints", List.of("127.0.0.1:6379"), "username", "",
                "password", "****", "passwordFile", "", "passwordEnv", "", "db", 0, "dialTimeout", "1.5s",
                "readTimeout", "3s", "failureMode", "closed"));
        LoadBalancer lb = new LoadBalancer(List.of(Server.of("http://10.0.0.1:80")), null, null, null, null);
        assertThat(ConfigTree.of(lb)).isEqualTo(Map.of("servers", List.of(Map.of("url", "http://10.0.0.1:80",
                "weight", 1)), "passHostHeader", true));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            user and password  | http://admin:pw@10.0.0.1:8080/x | http://****@10.0.0.1:8080/x
            user only          | https://token@host/             | https://****@host/
            none               | http://10.0.0.1:8080/a@b        | http://10.0.0.1:8080/a@b
            not a URL          | admin:pw@host                   | admin:pw@host
            """)
    void userInfoInUrlsIsMasked(String name, String text, String shown) {
        assertThat(ConfigTree.withoutUserInfo(text)).isEqualTo(shown);
    }
}
