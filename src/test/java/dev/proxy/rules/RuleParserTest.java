package dev.proxy.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuleParserTest {

    /** Rule → canonical AST text ({@link Expr#toString()}), or {@code error: <exact message>}. */
    static Stream<Arguments> rules() {
        String deep64 = "(".repeat(64) + "A(`1`)" + ")".repeat(64);
        String deep65 = "(".repeat(65) + "A(`1`)" + ")".repeat(65);
        String long8192 = "Path(`/" + "a".repeat(8192 - 9) + "`)";
        return Stream.of(
                // --- valid: calls and arguments
                row("one call", "Host(`example.com`)", "Host(`example.com`)"),
                row("double-quoted argument", "Host(\"example.com\")", "Host(`example.com`)"),
                row("two arguments", "Header(`X-Env`, `prod`)", "Header(`X-Env`, `prod`)"),
                row("mixed quote styles", "Header(\"X-Env\",`prod`)", "Header(`X-Env`, `prod`)"),
                row("no arguments parses (the compiler counts)", "Foo()", "Foo()"),
                row("empty argument parses (the compiler refuses)", "Host(``)", "Host(``)"),
                row("escaped quote and backslash", "Path(\"/a\\\"b\\\\c\")", "Path(`/a\"b\\c`)"),
                row("backslash is literal in backticks", "PathRegexp(`\\.php$`)", "PathRegexp(`\\.php$`)"),
                row("double quote inside backticks", "Header(`X`, `say \"hi\"`)", "Header(`X`, `say \"hi\"`)"),
                row("backtick inside double quotes", "Header(\"X\", \"a`b\")", "Header(`X`, \"a`b\")"),
                row("comma and parens inside a string", "Path(`/a,(b)&&c||!`)", "Path(`/a,(b)&&c||!`)"),
                row("non-ASCII argument", "Path(`/café`)", "Path(`/café`)"),
                row("name case kept as written", "host(`a`)", "host(`a`)"),
                row("name with underscore and digits", "_Foo_2(`x`)", "_Foo_2(`x`)"),
                // --- valid: operators and precedence
                row("and", "Host(`a`) && Path(`/`)", "(Host(`a`) && Path(`/`))"),
                row("or", "Host(`a`) || Host(`b`)", "(Host(`a`) || Host(`b`))"),
                row("and chain is one node", "A(`1`) && B(`2`) && C(`3`)", "(A(`1`) && B(`2`) && C(`3`))"),
                row("or chain is one node", "A(`1`) || B(`2`) || C(`3`)", "(A(`1`) || B(`2`) || C(`3`))"),
                row("&& binds tighter than || (right)", "A(`1`) || B(`2`) && C(`3`)",
                        "(A(`1`) || (B(`2`) && C(`3`)))"),
                row("&& binds tighter than || (left)", "A(`1`) && B(`2`) || C(`3`)",
                        "((A(`1`) && B(`2`)) || C(`3`))"),
                row("parentheses override precedence", "A(`1`) && (B(`2`) || C(`3`))",
                        "(A(`1`) && (B(`2`) || C(`3`)))"),
                row("explicit grouping is kept", "(A(`1`) && B(`2`)) && C(`3`)",
                        "((A(`1`) && B(`2`)) && C(`3`))"),
                row("redundant parentheses vanish", "((A(`1`)))", "A(`1`)"),
                row("not on a call", "!A(`1`)", "!A(`1`)"),
                row("not on a group", "!(A(`1`) || B(`2`))", "!(A(`1`) || B(`2`))"),
                row("double not", "!!A(`1`)", "!!A(`1`)"),
                row("! binds tighter than &&", "!A(`1`) && B(`2`)", "(!A(`1`) && B(`2`))"),
                row("nested mix", "(A(`1`) || B(`2`)) && !(C(`3`) && !D(`4`))",
                        "((A(`1`) || B(`2`)) && !(C(`3`) && !D(`4`)))"),
                row("whitespace everywhere", " \tHost ( `a` , `b` )\r\n&&\n( ! Path(`/`) ) ",
                        "(Host(`a`, `b`) && !Path(`/`))"),
                row("no whitespace at all", "A(`1`)&&B(`2`)||!C(`3`)", "((A(`1`) && B(`2`)) || !C(`3`))"),
                row("64 levels of parentheses", deep64, "A(`1`)"),
                row("64 levels of !", "!".repeat(64) + "A(`1`)", "!".repeat(64) + "A(`1`)"),
                row("8192 characters", long8192, long8192),
                // --- invalid: operators
                row("operator twice", "Host(`a`) && && Path(`/`)",
                        "error: unexpected token '&&' at column 14 in rule \"Host(`a`) && && Path(`/`)\""),
                row("trailing &&", "Host(`a`) &&",
                        "error: unexpected end of rule at column 13 in rule \"Host(`a`) &&\""),
                row("trailing || and spaces", "Host(`a`) ||   ",
                        "error: unexpected end of rule at column 16 in rule \"Host(`a`) ||   \""),
                row("leading ||", "|| Host(`a`)",
                        "error: unexpected token '||' at column 1 in rule \"|| Host(`a`)\""),
                row("trailing !", "Host(`a`) && !",
                        "error: unexpected end of rule at column 15 in rule \"Host(`a`) && !\""),
                row("! alone", "!", "error: unexpected end of rule at column 2 in rule \"!\""),
                row("single &", "Host(`a`) & Path(`/`)",
                        "error: expected '&&', found a single '&' at column 11 in rule \"Host(`a`) & Path(`/`)\""),
                row("single |", "Host(`a`) | Path(`/`)",
                        "error: expected '||', found a single '|' at column 11 in rule \"Host(`a`) | Path(`/`)\""),
                row("triple &", "Host(`a`) &&& Path(`/`)",
                        "error: expected '&&', found a single '&' at column 13 in rule \"Host(`a`) &&& Path(`/`)\""),
                row("two calls without operator", "Host(`a`) Path(`/`)",
                        "error: unexpected token 'Path' at column 11 in rule \"Host(`a`) Path(`/`)\""),
                row("comma between calls", "Host(`a`), Path(`/`)",
                        "error: unexpected token ',' at column 10 in rule \"Host(`a`), Path(`/`)\""),
                // --- invalid: parentheses
                row("unclosed group", "(Host(`a`) || Path(`/`)",
                        "error: missing ')' for '(' at column 1 in rule \"(Host(`a`) || Path(`/`)\""),
                row("unclosed call", "Host(`a`",
                        "error: missing ')' for 'Host(' at column 1 in rule \"Host(`a`\""),
                row("unclosed call after comma", "Header(`a`,",
                        "error: missing ')' for 'Header(' at column 1 in rule \"Header(`a`,\""),
                row("extra )", "Host(`a`))", "error: unexpected token ')' at column 10 in rule \"Host(`a`))\""),
                row("empty group", "()", "error: unexpected token ')' at column 2 in rule \"()\""),
                row("open ( at end", "Host(`a`) || (",
                        "error: unexpected end of rule at column 15 in rule \"Host(`a`) || (\""),
                // --- invalid: names and arguments
                row("name without arguments", "Host",
                        "error: expected '(' after 'Host' at column 5 in rule \"Host\""),
                row("name followed by a string", "Host `a`",
                        "error: expected '(' after 'Host' at column 6 in rule \"Host `a`\""),
                row("unquoted argument", "Host(example.com)",
                        "error: expected a string in backticks or double quotes, found 'example' at column 6"
                                + " in rule \"Host(example.com)\""),
                row("missing comma", "Header(`a` `b`)",
                        "error: expected ',' or ')' after an argument, found '`b`' at column 12"
                                + " in rule \"Header(`a` `b`)\""),
                row("trailing comma", "Host(`a`,)",
                        "error: expected a string in backticks or double quotes, found ')' at column 10"
                                + " in rule \"Host(`a`,)\""),
                row("text glued to a string", "Host(\"a\"b\")",
                        "error: expected ',' or ')' after an argument, found 'b' at column 9 in rule \"Host(\\\"a\\\"b\\\")\""),
                row("string alone", "`a`", "error: unexpected token '`a`' at column 1 in rule \"`a`\""),
                row("name starting with a digit", "1Host(`a`)",
                        "error: unexpected character '1' at column 1 in rule \"1Host(`a`)\""),
                row("non-ASCII name", "Hóst(`a`)", "error: unexpected character 'ó' at column 2 in rule \"Hóst(`a`)\""),
                row("stray character", "Host(`a`) # x",
                        "error: unexpected character '#' at column 11 in rule \"Host(`a`) # x\""),
                row("control character is escaped in the message", "Host(`a`)\u0000",
                        "error: unexpected character U+0000 at column 10 in rule \"Host(`a`)\\u0000\""),
                row("newline is escaped in the message", "Host(`a`)\n&&",
                        "error: unexpected end of rule at column 13 in rule \"Host(`a`)\\n&&\""),
                // --- invalid: strings
                row("single quotes", "Host('a')",
                        "error: single quotes are not allowed, use backticks or double quotes at column 6"
                                + " in rule \"Host('a')\""),
                row("unterminated backtick", "Host(`a)", "error: unterminated string at column 6 in rule \"Host(`a)\""),
                row("unterminated double quote", "Host(\"a)",
                        "error: unterminated string at column 6 in rule \"Host(\\\"a)\""),
                row("escaped closing quote leaves it open", "Host(\"a\\\")",
                        "error: unterminated string at column 6 in rule \"Host(\\\"a\\\\\\\")\""),
                row("backslash at the very end", "Host(\"a\\",
                        "error: unterminated string at column 6 in rule \"Host(\\\"a\\\\\""),
                row("unknown escape", "Host(\"a\\n\")",
                        "error: invalid escape sequence '\\n' (only \\\" and \\\\ are allowed) at column 8"
                                + " in rule \"Host(\\\"a\\\\n\\\")\""),
                // --- invalid: size
                row("empty", "", "error: rule is empty"),
                row("blank", " \t\n", "error: rule is empty"),
                row("65 levels of parentheses", deep65,
                        "error: nesting deeper than 64 levels at column 65 in rule \"" + deep65.substring(0, 120) + "\"…"),
                row("65 levels of !", "!".repeat(65) + "A(`1`)",
                        "error: nesting deeper than 64 levels at column 65 in rule \"" + "!".repeat(65) + "A(`1`)\""),
                row("8193 characters", long8192 + " ", "error: rule is 8193 characters long, the limit is 8192"),
                row("10,000-deep parentheses", "(".repeat(10_000),
                        "error: rule is 10000 characters long, the limit is 8192"),
                row("1 MB", "Host(`" + "a".repeat(1 << 20) + "`)",
                        "error: rule is 1048584 characters long, the limit is 8192"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void parses_or_explains(String description, String rule, String expected) {
        assertThat(parseOrError(rule)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void canonical_text_parses_back_to_the_same_tree(String description, String rule, String expected) {
        if (!expected.startsWith("error: ")) {
            assertThat(RuleParser.parse(expected).toString()).isEqualTo(expected);
        }
    }

    @Test
    void calls_record_their_column() {
        Expr expr = RuleParser.parse("Host(`a`) &&\n  Path(`/`)");

        assertThat(expr).isEqualTo(new Expr.And(List.of(
                new Expr.Call("Host", List.of("a"), 1),
                new Expr.Call("Path", List.of("/"), 16))));
    }

    @Test
    void exception_exposes_reason_and_column() {
        assertThatThrownBy(() -> RuleParser.parse("Host(`a`) && && Path(`/`)"))
                .isInstanceOfSatisfying(RuleSyntaxException.class, e -> {
                    assertThat(e.reason()).isEqualTo("unexpected token '&&'");
                    assertThat(e.column()).isEqualTo(14);
                });
    }

    /**
     * Totality: random token soup never throws anything but {@link RuleSyntaxException}, and whatever parses
     * prints to text that parses back to the same text. Seeded, so a failure is reproducible.
     */
    @Test
    void random_input_only_ever_gives_a_tree_or_a_syntax_error() {
        String[] pieces = {"Host", "Path", "x", "_", "1", "(", ")", "(", ")", ",", "&&", "||", "!", "&", "|",
            "`a`", "``", "\"b\"", "\"\\\"\"", "\"\\\\\"", "\"\\n\"", "`", "\"", "'", "\\", " ", "\t", "\n", "é",
            "\u0000", "\uD83D", "\uD83D\uDE00", "#", "Host(`a`)", "Header(`k`, `v`)"};
        Random random = new Random(20240601);
        int parsed = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder sb = new StringBuilder();
            int length = random.nextInt(12);
            for (int k = 0; k < length; k++) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            String rule = sb.toString();
            try {
                String canonical = RuleParser.parse(rule).toString();
                assertThat(RuleParser.parse(canonical).toString()).as(rule).isEqualTo(canonical);
                parsed++;
            } catch (RuleSyntaxException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            } catch (RuntimeException | StackOverflowError e) {
                fail("rule " + rule + " threw " + e, e);
            }
        }
        assertThat(parsed).as("some random inputs are valid").isGreaterThan(100);
    }

    private static String parseOrError(String rule) {
        try {
            return RuleParser.parse(rule).toString();
        } catch (RuleSyntaxException e) {
            return "error: " + e.getMessage();
        }
    }

    private static Arguments row(String description, String rule, String expected) {
        return arguments(description, rule, expected);
    }
}
