package dev.proxy.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RegexTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "a{1000}b{1000}c{1000}",                       // sequential repetitions add up
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "(\\d{1,3}\\.){3}\\d{1,3}",
        "[(]{500}\\({100}",                            // parentheses in classes and escapes are not groups
        "(a{100}){100}",                               // 10,000
        "\\p{Greek}{2}\\x{41}{3}\\Q(((\\E",
        "(?P<name>[a-z]+)\\.example\\.com$",
    })
    void accepts_patterns_that_routing_uses(String pattern) {
        assertThat(Regex.compile(pattern)).hasToString(pattern);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"(a{1000}){1000}", "((a{1000}){1000}){1000}", "((a{100}){100}){100}",
        "(?:(?:a{50}){50}){50}", "a{1000}{1000}"})
    void refuses_patterns_that_expand_beyond_the_limit_without_compiling_them(String pattern) {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
                assertThatThrownBy(() -> Regex.compile(pattern))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("too large"));
    }

    @Test
    void refuses_deeply_nested_groups_before_the_compiler_recurses() {
        String deep = "(".repeat(101) + "a" + ")".repeat(101);

        assertThatThrownBy(() -> Regex.compile(deep))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("regular expression nests groups deeper than 100");
        assertThat(Regex.compile("(".repeat(100) + "a" + ")".repeat(100)).find("xa")).isTrue();
    }

    @Test
    void backtracking_bombs_run_in_linear_time() {
        Regex nested = Regex.compile("^(a+)+$");
        Regex alternation = Regex.compile("^(a|aa)*c");
        String attack = "a".repeat(50_000) + "b";

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThat(nested.find(attack)).isFalse();
            assertThat(alternation.find(attack)).isFalse();
        });
    }

    @Test
    void long_inputs_do_not_overflow_the_stack() {
        // java.util.regex recurses per repetition of an alternation and overflows on inputs like this one
        assertThat(Regex.compile("^(a|b)*$").find("ab".repeat(100_000))).isTrue();
    }

    /** Totality: random pattern soup only ever compiles or gives IllegalArgumentException. Seeded. */
    @Test
    void random_patterns_compile_or_are_refused_cleanly() {
        String[] pieces = {"(", ")", "(?:", "(?P<n>", "(?i)", "[", "]", "[^", "[:alpha:]", "\\", "\\p{", "\\x{",
            "\\Q", "\\E", "{", "}", "{2}", "{2,}", "{2,5}", "{1000}", "{1001}", "*", "+", "?", "|", ".", "^", "$",
            "a", "é", ",", "0", "9"};
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int length = random.nextInt(10);
            for (int k = 0; k < length; k++) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            String pattern = sb.toString();
            try {
                Regex.compile(pattern).find("abc");
            } catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            } catch (RuntimeException | Error e) {
                fail("pattern " + pattern + " threw " + e, e);
            }
        }
    }
}
