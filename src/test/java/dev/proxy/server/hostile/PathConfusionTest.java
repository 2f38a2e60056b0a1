package dev.proxy.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.testing.DataPlane;
import dev.proxy.testing.RawHttp;
import dev.proxy.testing.RecordingBackend;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Path confusion over raw sockets. {@code PathPrefix(/admin)} is protected by basicAuth, {@code PathPrefix(/api)}
 * strips {@code /api}, {@code PathPrefix(/)} is public. For every spelling: the request is refused (400), or it is
 * routed to the admin router (401 without credentials, the admin backend never reached), or it reaches a public
 * backend with exactly the expected path — and that path, read the way lenient backends read paths (fully decoded,
 * backslashes as slashes, {@code ;} parameters dropped, dot segments and double slashes resolved), never falls
 * under {@code /admin}.
 */
class PathConfusionTest {

    private static final int ADMIN = -1;

    private static DataPlane proxy;
    private static RecordingBackend admin;
    private static RecordingBackend pub;

    @BeforeAll
    static void start() {
        admin = new RecordingBackend();
        pub = new RecordingBackend();
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        proxy.apply("""
                http:
                  routers:
                    admin: {rule: "PathPrefix(`/admin`)", service: admin, middlewares: [auth]}
                    api: {rule: "PathPrefix(`/api`)", service: pub, middlewares: [strip]}
                    public: {rule: "PathPrefix(`/`)", service: pub}
                  middlewares:
                    auth: {basicAuth: {users: ["u:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ="]}}
                    strip: {stripPrefix: {prefixes: ["/api"]}}
                  services:
                    admin: {loadBalancer: {servers: [{url: "%s"}]}}
                    pub: {loadBalancer: {servers: [{url: "%s"}]}}
                """.formatted(admin.url(), pub.url()));
    }

    @AfterAll
    static void stop() {
        proxy.close();
        admin.close();
        pub.close();
    }

    private int publicBefore;

    @BeforeEach
    void mark() {
        publicBefore = pub.received().size();
    }

    static Stream<Arguments> targets() {
        return Stream.of(
                row("plain admin", "GET", "/admin", ADMIN, null),
                row("admin subpath", "GET", "/admin/x", ADMIN, null),
                row("admin with a ; parameter (routing sees the prefix)", "GET", "/admin;x=1", ADMIN, null),
                row("dot-dot into admin", "GET", "/public/../admin", ADMIN, null),
                row("dot-dot above the root", "GET", "/public/../../admin", ADMIN, null),
                row("encoded dot-dot %2e%2e", "GET", "/public/%2e%2e/admin", ADMIN, null),
                row("mixed-case encoded dot-dot %2E%2e/", "GET", "/public/%2E%2e/admin/", ADMIN, null),
                row("single dot", "GET", "/./admin", ADMIN, null),
                row("double slash", "GET", "//admin", ADMIN, null),
                row("double slash inside", "GET", "/public/..//admin", ADMIN, null),
                row("encoded unreserved letter", "GET", "/%61dmin", ADMIN, null),
                row("parameter on a popped segment", "GET", "/public;x/../admin", ADMIN, null),
                row("through stripPrefix: /api/../admin", "GET", "/api/../admin", ADMIN, null),
                row("absolute form, other host", "GET", "http://other.host/admin", ADMIN, null),
                row("absolute form, upper-case scheme", "GET", "HTTP://a.example/admin/x", ADMIN, null),
                row("encoded slash", "GET", "/admin%2fx", 400, null),
                row("encoded slash hiding dot-dot", "GET", "/public%2f..%2fadmin", 400, null),
                row("encoded slash upper case", "GET", "/%2Fadmin", 400, null),
                row("encoded backslash", "GET", "/public%5c..%5cadmin", 400, null),
                row("raw backslash", "GET", "/public\\..\\admin", 400, null),
                row("encoded NUL", "GET", "/admin%00", 400, null),
                row("encoded NUL before dot-dot", "GET", "/public%00/../admin", 400, null),
                row("encoded semicolon", "GET", "/public%3b/../admin", 400, null),
                row("dot-dot with a parameter (Tomcat)", "GET", "/public/..;/admin", 400, null),
                row("empty segment with a parameter", "GET", "/;x/admin", 400, null),
                row("encoded percent (double encoding)", "GET", "/public/%252e%252e/admin", 400, null),
                row("encoded question mark", "GET", "/admin%3f", 400, null),
                row("encoded hash", "GET", "/admin%23", 400, null),
                row("bad percent escape", "GET", "/public/%zz", 400, null),
                row("fragment", "GET", "/admin#frag", 400, null),
                row("fragment hiding dot-dot", "GET", "/public#/../admin", 400, null),
                row("GET *", "GET", "*", 400, null),
                row("absolute form, other scheme", "GET", "ftp://a.example/admin", 400, null),
                row("overlong path", "GET", "/" + "a".repeat(9000), 414, null),
                row("OPTIONS * is answered by the proxy", "OPTIONS", "*", 200, null),
                row("public path as it is", "GET", "/public/x?q=1", 200, "/public/x?q=1"),
                row("query is not normalised", "GET", "/public/x?y=/../admin", 200, "/public/x?y=/../admin"),
                row("dot segments resolved", "GET", "/public/./a/../x/", 200, "/public/x/"),
                row("double slashes merged", "GET", "/public//x", 200, "/public/x"),
                row("encoded unreserved decoded", "GET", "/public/%7e%41", 200, "/public/~A"),
                row("other escapes kept, upper case", "GET", "/public/%e2%82%ac", 200, "/public/%E2%82%AC"),
                row("parameter kept", "GET", "/public;jsessionid=1/x", 200, "/public;jsessionid=1/x"),
                row("admin-like prefix is not admin", "GET", "/administrator", ADMIN, null),
                row("stripPrefix forwards what it strips to", "GET", "/api/x/./y", 200, "/x/y"),
                row("absolute form to public", "GET", "http://other.host/public?q", 200, "/public?q"));
    }

    private static Arguments row(String name, String method, String target, int status, String forwarded) {
        return Arguments.of(name, method, target, status, forwarded);
    }

    @ParameterizedTest(name = "{0}: {1} {2}")
    @MethodSource("targets")
    void noSpellingReachesAdminWithoutItsMiddlewares(String name, String method, String target, int status,
                                                     String forwarded) {
        RawHttp.Reply reply = RawHttp.exchange(proxy.port("web"), method + " " + target
                + " HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n", 5_000);
        assertThat(admin.received()).as("admin backend reached without credentials").isEmpty();
        var seen = pub.received().subList(publicBefore, pub.received().size());
        seen.forEach(r -> assertThat(lenientBackendPath(r.target())).as(r.target()).doesNotStartWith("/admin"));
        if (status == ADMIN) {
            assertThat(reply.statuses()).as(reply.text()).containsExactly(401);
            assertThat(seen).isEmpty();
        } else if (forwarded == null) {
            assertThat(reply.statuses()).as(reply.text()).containsExactly(status);
            assertThat(seen).isEmpty();
        } else {
            assertThat(reply.statuses()).as(reply.text()).containsExactly(status);
            assertThat(seen).extracting(RecordingBackend.Received::target).containsExactly(forwarded);
        }
    }

    /** How a lenient backend might read a path: everything decoded, \ as /, ;params dropped, dots resolved. */
    private static String lenientBackendPath(String target) {
        int q = target.indexOf('?');
        String p = java.net.URLDecoder.decode((q < 0 ? target : target.substring(0, q)).replace("+", "%2B"),
                java.nio.charset.StandardCharsets.UTF_8).replace('\\', '/');
        Deque<String> out = new ArrayDeque<>();
        for (String segment : p.split("/")) {
            int semi = segment.indexOf(';');
            String s = semi < 0 ? segment : segment.substring(0, semi);
            if (s.equals("..")) {
                out.pollLast();
            } else if (!s.isEmpty() && !s.equals(".")) {
                out.add(s);
            }
        }
        return ("/" + String.join("/", out)).toLowerCase(Locale.ROOT);
    }
}
