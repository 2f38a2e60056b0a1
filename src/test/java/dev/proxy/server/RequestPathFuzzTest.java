package dev.proxy.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz target for the request-target parsing that gives routing its path ({@link Exchange#path()}: origin form,
 * absolute form, {@code *}) and for the {@link PathNormalizer} that gives routing and forwarding the same path.
 * Seeds: one request target or path each, in {@code src/test/resources/dev/proxy/server/RequestPathFuzzTestInputs/}.
 */
class RequestPathFuzzTest {

    /**
     * Any request target: the path is never empty, starts with {@code /}, holds no {@code ?}, is a part of the
     * target, and never comes from the query: in absolute form the authority ends at the first {@code /}, {@code ?}
     * or {@code #}, so {@code http://host?x/admin} routes as {@code /}, not as {@code /admin}.
     */
    @FuzzTest(maxDuration = "60s")
    void path(byte[] input) {
        String target = new String(input, StandardCharsets.ISO_8859_1);
        DefaultHttpRequest request;
        try {
            request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target, false);
        } catch (IllegalArgumentException refused) {
            return; // Netty refuses a target with CR, LF, NUL or spaces before any request exists: it never routes
        }
        Exchange exchange = new Exchange(null, request, null);
        String path = exchange.path();
        assertThat(path).startsWith("/").doesNotContain("?");
        assertThat(exchange.path()).isSameAs(path);
        if (target.startsWith("/")) {
            int q = target.indexOf('?');
            assertThat(path).isEqualTo(q < 0 ? target : q == 0 ? "/" : target.substring(0, q));
            return;
        }
        int scheme = target.indexOf("://");
        if (scheme < 0) {
            assertThat(path).isEqualTo("/");
            return;
        }
        String rest = target.substring(scheme + 3);
        int authorityEnd = 0;
        while (authorityEnd < rest.length() && "/?#".indexOf(rest.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        if (authorityEnd == rest.length() || rest.charAt(authorityEnd) != '/') {
            assertThat(path).isEqualTo("/");
        } else {
            assertThat(rest.substring(authorityEnd)).startsWith(path);
        }
    }

    /**
     * Any path: the normaliser refuses it with {@link PathNormalizer.RejectedPath} or returns a path that starts with
     * {@code /}, has no dot segment, no empty segment and no backslash, and normalises to itself (idempotent), so the
     * path a router matched is the path the backend reads.
     */
    @FuzzTest(maxDuration = "60s")
    void normalize(byte[] input) {
        String raw = "/" + new String(input, StandardCharsets.ISO_8859_1);
        String normal;
        try {
            normal = PathNormalizer.normalize(raw);
        } catch (PathNormalizer.RejectedPath refused) {
            return;
        }
        assertThat(normal).startsWith("/").doesNotContain("\\").doesNotContain("//");
        for (String segment : normal.substring(1).split("/", -1)) {
            assertThat(segment).isNotIn(".", "..");
        }
        assertThat(PathNormalizer.normalize(normal)).isEqualTo(normal);
    }
}
