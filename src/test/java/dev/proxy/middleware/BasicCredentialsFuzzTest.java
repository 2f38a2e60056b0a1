package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Fuzz target for the {@code Authorization: Basic} header parser of basicAuth. Seeds: header values separated by
 * newlines (several values = a repeated header), in
 * {@code src/test/resources/dev/proxy/middleware/BasicCredentialsFuzzTestInputs/parse/}.
 */
class BasicCredentialsFuzzTest {

    /**
     * Any header values: the parser never throws; what it accepts came from one value no longer than the limit, has
     * a user without a colon, and encodes back to credentials that parse to the same user and password; the password
     * never shows in {@code toString()}.
     */
    @FuzzTest(maxDuration = "60s")
    void parse(byte[] input) {
        List<String> values = Arrays.asList(new String(input, StandardCharsets.UTF_8).split("\n", -1));
        BasicCredentials parsed = BasicCredentials.parse(values);
        if (parsed == null) {
            return;
        }
        assertThat(values).hasSize(1);
        assertThat(values.get(0).length()).isLessThanOrEqualTo(BasicCredentials.MAX_HEADER_LENGTH);
        assertThat(parsed.user()).doesNotContain(":");
        byte[] user = parsed.user().getBytes(StandardCharsets.UTF_8);
        byte[] pair = new byte[user.length + 1 + parsed.password().length];
        System.arraycopy(user, 0, pair, 0, user.length);
        pair[user.length] = ':';
        System.arraycopy(parsed.password(), 0, pair, user.length + 1, parsed.password().length);
        BasicCredentials again = BasicCredentials.parse(List.of("Basic " + Base64.getEncoder().encodeToString(pair)));
        assertThat(again).isNotNull();
        assertThat(again.user()).isEqualTo(parsed.user());
        assertThat(again.password()).isEqualTo(parsed.password());
        if (parsed.password().length > 0) {
            assertThat(parsed.toString()).endsWith("password=****]");
        }
    }
}
