package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** basicAuth over real sockets: every hash format, the reject paths, and fail-closed configuration. */
class BasicAuthTest {

    // Hashes made by other implementations than the ones that check them: the OpenBSD bcrypt test vector for "U*U"
    // (the same digest under each minor version), `openssl passwd -apr1 -salt abcdefgh secret`, and
    // `printf secret | openssl sha1 -binary | base64`.
    static final String BCRYPT_UU = "$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    static final String APR1_SECRET = "$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/";
    static final String SHA_SECRET = "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=";

    @RegisterExtension
    final OneRoute route = OneRoute.standard();

    private void configure(String basicAuth) {
        route.through("{basicAuth: " + basicAuth + "}");
    }

    private String users() {
        return "{users: [\"a2a:$2a" + BCRYPT_UU + "\", \"a2b:$2b" + BCRYPT_UU + "\", \"a2y:$2y" + BCRYPT_UU
                + "\", \"apr:" + APR1_SECRET + "\", \"sha:" + SHA_SECRET + "\"]}";
    }

    private HttpResponse<String> get(String... headers) throws Exception {
        return route.get("/x", headers);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0} accepted")
    @CsvSource({"a2a,U*U", "a2b,U*U", "a2y,U*U", "apr,secret", "sha,secret"})
    void eachHashFormatAcceptsItsPassword(String user, String password) throws Exception {
        configure(users());
        HttpResponse<String> r = get("Authorization", basic(user, password));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(route.backend.last().header("Authorization")).isEqualTo(basic(user, password)); // kept by default
    }

    @ParameterizedTest(name = "{0} with a wrong password: 401")
    @ValueSource(strings = {"a2a", "a2b", "a2y", "apr", "sha"})
    void wrongPasswordIsRefusedWithAChallenge(String user) throws Exception {
        configure(users());
        HttpResponse<String> r = get("Authorization", basic(user, "U*V"));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"proxy\"");
        assertThat(route.backend.requests).isEmpty();
    }

    @ParameterizedTest(name = "Authorization {0}: 401")
    @ValueSource(strings = {"", "Bearer abc", "Basic", "Basic !!!not-base64!!!", "Basic YWxpY2U=" /* no colon */,
            "Basic YTJhOlUqVQ== trailing", "Digest username=\"a2a\""})
    void malformedAuthorizationIs401(String header) throws Exception {
        configure(users());
        HttpResponse<String> r = header.isEmpty() ? get() : get("Authorization", header);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"proxy\"");
    }

    @Test
    void hugeOrRepeatedAuthorizationIs401() throws Exception {
        configure(users());
        assertThat(get("Authorization", "Basic " + "A".repeat(6000)).statusCode()).isEqualTo(401);
        assertThat(get("Authorization", basic("sha", "secret"), "Authorization", basic("sha", "secret")).statusCode())
                .isEqualTo(401);
        // a password far over bcrypt's 72 bytes is refused, not truncated to a match
        assertThat(get("Authorization", basic("a2a", "U*U" + "x".repeat(100))).statusCode()).isEqualTo(401);
    }

    @Test
    void unknownUserCostsABcryptCheckLikeAKnownOne() throws Exception {
        configure(users());
        long before = route.proxy.middlewares.passwordChecks();
        assertThat(get("Authorization", basic("nobody", "U*U")).statusCode()).isEqualTo(401);
        assertThat(route.proxy.middlewares.passwordChecks()).isEqualTo(before + 1);
        assertThat(get("Authorization", basic("a2a", "wrong")).statusCode()).isEqualTo(401);
        assertThat(route.proxy.middlewares.passwordChecks()).isEqualTo(before + 2);
    }

    @Test
    void successesAreCachedFailuresAreNot() throws Exception {
        configure(users());
        long before = route.proxy.middlewares.passwordChecks();
        for (int i = 0; i < 3; i++) {
            assertThat(get("Authorization", basic("a2y", "U*U")).statusCode()).isEqualTo(200);
        }
        assertThat(route.proxy.middlewares.passwordChecks()).isEqualTo(before + 1);
        for (int i = 0; i < 2; i++) {
            assertThat(get("Authorization", basic("a2y", "guess")).statusCode()).isEqualTo(401);
        }
        assertThat(route.proxy.middlewares.passwordChecks()).isEqualTo(before + 3);
    }

    @Test
    void realmRemoveHeaderAndHeaderField(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("htpasswd");
        Files.writeString(file, "# users\n\nsha:" + SHA_SECRET + "\n");
        configure("{usersFile: \"" + file + "\", realm: \"Staff only\", removeHeader: true, headerField: X-Auth-User}");
        assertThat(get().headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"Staff only\"");
        HttpResponse<String> r = get("Authorization", basic("sha", "secret"), "X-Auth-User", "admin");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(route.backend.last().header("Authorization")).isNull();
        assertThat(route.backend.last().header("X-Auth-User")).isEqualTo("sha"); // the client's own value is replaced
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "crypt SHA-512 hash   | {users: [\"bob:$6$salt$abc\"]}                    | user bob: unsupported hash",
            "plain text password  | {users: [\"bob:hunter2\"]}                        | user bob: unsupported hash",
            "truncated bcrypt     | {users: [\"bob:$2y$05$CCCC\"]}                    | user bob: malformed bcrypt hash",
            "same user twice      | {users: [\"sha:" + SHA_SECRET + "\", \"sha:" + SHA_SECRET + "\"]} | user sha is defined twice",
            "missing usersFile    | {usersFile: /nonexistent/htpasswd}               | cannot read usersFile /nonexistent/htpasswd: NoSuchFileException"})
    void invalidConfigurationDisablesTheRouter(String name, String basicAuth, String reason) throws Exception {
        configure(basicAuth);
        assertThat(route.proxy.routing.errors()).containsOnlyKeys("r@file");
        assertThat(route.proxy.routing.errors().get("r@file")).startsWith("middleware m@file: " + reason);
        assertThat(get("Authorization", basic("bob", "hunter2")).statusCode()).isEqualTo(404); // not served unprotected
        assertThat(route.backend.requests).isEmpty();
    }

    @Test
    void aUsersFileNamedByATagIsNotRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("htpasswd");
        Files.writeString(file, "sha:" + SHA_SECRET + "\n");
        route.proxy.apply("registrycatalog", """
                http:
                  routers: {r: {rule: "PathPrefix(`/`)", service: s, middlewares: [m]}}
                  services: {s: {loadBalancer: {servers: [{url: "%s"}]}}}
                  middlewares: {m: {basicAuth: {usersFile: "%s"}}}
                """.formatted(route.backend.url(), file));
        assertThat(route.proxy.routing.errors().get("r@registrycatalog"))
                .isEqualTo("middleware m@registrycatalog: usersFile is only honoured in the file provider's configuration");
        assertThat(get("Authorization", basic("sha", "secret")).statusCode()).isEqualTo(404);
    }
}
