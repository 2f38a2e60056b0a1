package dev.proxy.config.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.dynamic.DynamicConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target for the tag/label decoder shared by the discovery providers. Seeds: one {@code key=value} label per
 * line, in {@code src/test/resources/dev/proxy/config/label/LabelDecoderFuzzTestInputs/decode/}.
 */
class LabelDecoderFuzzTest {

    /**
     * Any labels: the decoder throws nothing but {@link ConfigException} (with the item in its message, on one line),
     * the same labels in another order decode to the same configuration (or the same error), and nothing decoded
     * carries a CR, LF or NUL into the configuration.
     */
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] input) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String line : new String(input, StandardCharsets.UTF_8).split("\n", -1)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                labels.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        Object first = outcome(labels);
        List<Map.Entry<String, String>> reversed = new ArrayList<>(labels.entrySet());
        Collections.reverse(reversed);
        Map<String, String> other = new LinkedHashMap<>();
        reversed.forEach(e -> other.put(e.getKey(), e.getValue()));
        assertThat(outcome(other)).isEqualTo(first);
        if (first instanceof String message) {
            assertThat(message).startsWith("fuzzed item").doesNotContain("\r", "\n", "\0");
        } else {
            assertThat(first.toString()).doesNotContain("\r", "\n", "\0");
        }
    }

    /** The configuration, or the message of the {@link ConfigException}; anything else thrown fails the target. */
    private static Object outcome(Map<String, String> labels) {
        Throwable t = catchThrowable(() -> LabelDecoder.decode(labels, "proxy", "fuzzed item"));
        if (t == null) {
            DynamicConfig config = LabelDecoder.decode(labels, "proxy", "fuzzed item");
            return config;
        }
        if (t instanceof ConfigException) {
            return t.getMessage();
        }
        throw new AssertionError("the decoder threw " + t, t);
    }
}
