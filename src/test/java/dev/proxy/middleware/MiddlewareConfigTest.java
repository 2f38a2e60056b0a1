package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.Secret;
import dev.proxy.config.dynamic.BasicAuth;
import dev.proxy.config.dynamic.Chain;
import dev.proxy.config.dynamic.Compress;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.Headers;
import dev.proxy.config.dynamic.IpStrategy;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.RateLimit;
import dev.proxy.config.dynamic.RedirectScheme;
import dev.proxy.config.dynamic.RedisConfig;
import dev.proxy.config.dynamic.SourceCriterion;
import dev.proxy.config.dynamic.StripPrefix;
import java.time.Duration;
import dev.proxy.config.label.LabelDecoder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Middleware configuration as tags and labels write it (flat, lower-case keys, comma lists), read by the label
 * decoder into the same records as the file provider's YAML; and the values they refuse.
 */
class MiddlewareConfigTest {

    /** Decodes {@code key=value} pairs as the labels {@code proxy.http.middlewares.<key>=<value>} of one item. */
    private static Map<String, Middleware> decode(String... keys) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String k : keys) {
            int eq = k.indexOf('=');
            labels.put("proxy.http.middlewares." + k.substring(0, eq), k.substring(eq + 1));
        }
        return LabelDecoder.decode(labels, "proxy", "test item label").http().middlewares();
    }

    /** The same keys as flags (the path YAML and the command line share), where control characters can be written. */
    private static Map<String, Middleware> decodeFlags(String... keys) {
        List<String> flags = Arrays.stream(keys).map(k -> "--http.middlewares." + k).toList();
        return RecordDecoder.decode(DynamicConfig.class, CommandLineEntries.fromFlags(flags)).http().middlewares();
    }

    @Test
    void tagStyleKeysGiveTheWholeExpectedConfiguration() {
        Map<String, Middleware> m = decode(
                "auth.basicauth.users=alice:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=,bob:$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/",
                "auth.basicauth.removeheader=true",
                "zip.compress=true",
                "limit.ratelimit.average=5",
                "limit.ratelimit.burst=10",
                "limit.ratelimit.sourcecriterion.ipstrategy.depth=1",
                "limit.ratelimit.redis.endpoints=127.0.0.1:6380",
                "limit.ratelimit.redis.failuremode=closed",
                "cors.headers.customrequestheaders.X-Env=prod",
                "cors.headers.accesscontrolallowmethods=get,post",
                "cors.headers.accesscontrolalloworiginlist=https://a.example,https://b.example",
                "strip.stripprefix.prefixes=/api,/v1",
                "https.redirectscheme.scheme=https",
                "https.redirectscheme.permanent=true",
                "all.chain.middlewares=auth,zip");

        assertThat(m).containsOnlyKeys("auth", "zip", "limit", "cors", "strip", "https", "all");
        assertThat(m.get("auth").basicAuth()).isEqualTo(new BasicAuth(List.of(
                new Secret("alice:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ="), new Secret("bob:$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/")),
                "", "proxy", true, ""));
        assertThat(m.get("zip").compress()).isEqualTo(new Compress(List.of(), List.of(), 1024, List.of("gzip", "br", "zstd"), ""));
        assertThat(m.get("limit").rateLimit()).isEqualTo(new RateLimit(5L, Duration.ofSeconds(1), 10L,
                new SourceCriterion(new IpStrategy(1, List.of()), "", false),
                new RedisConfig(List.of("127.0.0.1:6380"), "", new Secret(""), "", "", 0, Duration.ofSeconds(5),
                        Duration.ofSeconds(3), RedisConfig.FailureMode.CLOSED)));
        Headers cors = m.get("cors").headers();
        assertThat(cors.customRequestHeaders()).containsExactly(Map.entry("X-Env", "prod"));
        assertThat(cors.accessControlAllowMethods()).containsExactly("GET", "POST");
        assertThat(cors.accessControlAllowOriginList()).containsExactly("https://a.example", "https://b.example");
        assertThat(cors.addVaryHeader()).isTrue();
        assertThat(m.get("strip").stripPrefix()).isEqualTo(new StripPrefix(List.of("/api", "/v1")));
        assertThat(m.get("https").redirectScheme()).isEqualTo(new RedirectScheme("https", "", true));
        assertThat(m.get("all").chain()).isEqualTo(new Chain(List.of("auth", "zip")));
    }

    @Test
    void rateLimitDefaults() {
        RateLimit r = decode("l.ratelimit=true").get("l").rateLimit();
        assertThat(r).isEqualTo(new RateLimit(0L, Duration.ofSeconds(1), 1L, SourceCriterion.PEER, null));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no type                     | m.ratelimit=false                                  | a middleware needs a type",
            "two types                   | m.compress=true,m.stripprefix.prefixes=/a            | a middleware has exactly one type",
            "header name not a token     | m.headers.customrequestheaders.X(A)=1               | not a valid header name",
            "unknown encoding            | m.compress.encodings=gzip,deflate                   | unknown encoding \"deflate\"",
            "included and excluded       | m.compress.includedcontenttypes=text/html,m.compress.excludedcontenttypes=image/png | cannot both be set",
            "burst 0                     | m.ratelimit.burst=0                                 | must be at least 1",
            "two source criteria         | m.ratelimit.sourcecriterion.requesthost=true,m.ratelimit.sourcecriterion.requestheadername=X-Key | give only one",
            "two Redis endpoints         | m.ratelimit.redis.endpoints=127.0.0.1:1,127.0.0.1:2  | exactly one endpoint",
            "password twice              | m.ratelimit.redis.password=x,m.ratelimit.redis.passwordenv=PW | give only one",
            "realm with a quote          | m.basicauth.realm=a\"b,m.basicauth.users=u:{SHA}x  | must not contain quotes",
            "prefix not absolute         | m.stripprefix.prefixes=api                          | must start with /",
            "path with a query           | m.replacepath.path=/a?b=c                           | must not contain spaces",
            "redirect without scheme     | m.redirectscheme.permanent=true                     | a scheme such as https is required",
            "empty chain                 | m.chain=true                                        | a chain needs middleware names"})
    void refused(String name, String keys, String problem) {
        assertThatThrownBy(() -> decode(keys.split(",(?=m\\.)")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(problem);
    }

    @Test
    void headerInjectionFromATagIsRefused() {
        for (String value : List.of("a\r\nSet-Cookie: x=1", "a\nb", "a\u0000b")) {
            assertThatThrownBy(() -> decodeFlags("m.headers.customresponseheaders.X-A=" + value))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("must not contain control characters");
            assertThatThrownBy(() -> decodeFlags("m.headers.accesscontrolalloworiginlist=" + value))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("must not contain control characters");
            assertThatThrownBy(() -> decode("m.headers.customresponseheaders.X-A=" + value)) // refused by the label reader
                    .isInstanceOf(ConfigException.class).hasMessageContaining("control character");
        }
    }

    @Test
    void aMalformedUsersEntryIsNotEchoed() {
        assertThatThrownBy(() -> decode("m.basicauth.users=alice:{SHA}abc,nocolonsecret"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("entry 2 is not name:hash")
                .hasMessageNotContaining("nocolonsecret").hasMessageNotContaining("{SHA}abc");
    }

    @Test
    void entryPointMiddlewares() {
        var install = RecordDecoder.decode(dev.proxy.config.install.InstallConfig.class, CommandLineEntries.fromFlags(
                List.of("--entryPoints.web.address=:80", "--entryPoints.web.http.middlewares=a@file, b")));
        assertThat(install.entryPoints().get("web").http().middlewares()).containsExactly("a@file", "b");
    }
}
