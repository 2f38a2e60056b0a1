package dev.proxy.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz target for the rule parser. Without {@code JAZZER_FUZZ=1} it replays the seeds in
 * {@code src/test/resources/dev/proxy/rules/RuleParserFuzzTestInputs/parse/} as an ordinary test.
 */
class RuleParserFuzzTest {

    /**
     * Any text: the parser throws nothing but {@link RuleSyntaxException}, and what it accepts has a canonical text
     * that parses back to the same canonical text.
     */
    @FuzzTest(maxDuration = "60s")
    void parse(byte[] input) {
        String rule = new String(input, StandardCharsets.UTF_8);
        Expr expr;
        try {
            expr = RuleParser.parse(rule);
        } catch (RuleSyntaxException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            return;
        }
        String canonical = expr.toString();
        if (canonical.length() <= RuleParser.MAX_LENGTH) {
            assertThat(RuleParser.parse(canonical).toString()).isEqualTo(canonical);
        }
    }
}
