package dev.proxy.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConstraintTest {

    private static final Set<String> TAGS = Set.of("web", "team=payments", "proxy.enable=true", "v2");

    static Stream<Arguments> tags() {
        return Stream.of(
                arguments("empty matches all", "", TAGS, true),
                arguments("blank matches all", "  ", Set.of(), true),
                arguments("Tag present", "Tag(`web`)", TAGS, true),
                arguments("Tag absent", "Tag(`api`)", TAGS, false),
                arguments("Tag is exact, not a prefix", "Tag(`we`)", TAGS, false),
                arguments("Tag is exact, case matters", "Tag(`WEB`)", TAGS, false),
                arguments("Tag with = is a whole tag", "Tag(`team=payments`)", TAGS, true),
                arguments("Tag on no tags", "Tag(`web`)", Set.of(), false),
                arguments("Tag empty string", "Tag(``)", Set.of(""), true),
                arguments("TagRegex unanchored", "TagRegex(`pay`)", TAGS, true),
                arguments("TagRegex anchored miss", "TagRegex(`^pay`)", TAGS, false),
                arguments("TagRegex anchored hit", "TagRegex(`^team=(payments|billing)$`)", TAGS, true),
                arguments("TagRegex on no tags", "TagRegex(`.*`)", Set.of(), false),
                arguments("and", "Tag(`web`) && Tag(`v2`)", TAGS, true),
                arguments("and one missing", "Tag(`web`) && Tag(`v3`)", TAGS, false),
                arguments("or", "Tag(`api`) || Tag(`v2`)", TAGS, true),
                arguments("not", "!Tag(`internal`)", TAGS, true),
                arguments("not present", "!Tag(`web`)", TAGS, false),
                arguments("grouped", "Tag(`web`) && !(Tag(`v1`) || TagRegex(`^canary`))", TAGS, true),
                arguments("lower-case names", "tag(`web`) && tagregex(`^v`)", TAGS, true));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("tags")
    void tag_constraint(String description, String expression, Set<String> tags, boolean expected) {
        assertThat(TagConstraint.compile(expression).test(tags)).isEqualTo(expected);
    }

    private static final Map<String, String> LABELS = Map.of("env", "prod", "team", "payments", "empty", "");

    static Stream<Arguments> labels() {
        Map<String, String> withNull = new HashMap<>();
        withNull.put("env", null);
        return Stream.of(
                arguments("empty matches all", "", LABELS, true),
                arguments("Label equal", "Label(`env`, `prod`)", LABELS, true),
                arguments("Label other value", "Label(`env`, `staging`)", LABELS, false),
                arguments("Label is exact", "Label(`env`, `pro`)", LABELS, false),
                arguments("Label key case matters", "Label(`ENV`, `prod`)", LABELS, false),
                arguments("Label missing is empty", "Label(`zone`, ``)", LABELS, true),
                arguments("Label empty value", "Label(`empty`, ``)", LABELS, true),
                arguments("Label missing is not a value", "Label(`zone`, `a`)", LABELS, false),
                arguments("Label null value is empty", "Label(`env`, ``)", withNull, true),
                arguments("LabelRegex unanchored", "LabelRegex(`team`, `pay`)", LABELS, true),
                arguments("LabelRegex anchored miss", "LabelRegex(`team`, `^ment`)", LABELS, false),
                arguments("LabelRegex missing label matches ^$", "LabelRegex(`zone`, `^$`)", LABELS, true),
                arguments("LabelRegex missing label vs .+", "LabelRegex(`zone`, `.+`)", LABELS, false),
                arguments("and", "Label(`env`, `prod`) && Label(`team`, `payments`)", LABELS, true),
                arguments("or", "Label(`env`, `dev`) || LabelRegex(`team`, `^p`)", LABELS, true),
                arguments("not", "!Label(`env`, `prod`)", LABELS, false),
                arguments("grouped", "!(Label(`env`, `dev`) || Label(`env`, `test`)) && Label(`team`, `payments`)",
                        LABELS, true));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("labels")
    void label_constraint(String description, String expression, Map<String, String> labels, boolean expected) {
        assertThat(LabelConstraint.compile(expression).test(labels)).isEqualTo(expected);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("tags", "Label(`a`, `b`)",
                        "unknown function 'Label' at column 1 in constraint expression \"Label(`a`, `b`)\""),
                arguments("tags", "Tag(`a`, `b`)",
                        "Tag takes 1 argument, got 2 at column 1 in constraint expression \"Tag(`a`, `b`)\""),
                arguments("tags", "Tag(`a`) &&",
                        "unexpected end of constraint expression at column 12 in constraint expression \"Tag(`a`) &&\""),
                arguments("tags", "TagRegex(`[`)", "TagRegex: invalid regular expression: missing closing ]"
                        + " at column 1 in constraint expression \"TagRegex(`[`)\""),
                arguments("tags", "Tag('a')", "single quotes are not allowed, use backticks or double quotes"
                        + " at column 5 in constraint expression \"Tag('a')\""),
                arguments("labels", "Tag(`a`)",
                        "unknown function 'Tag' at column 1 in constraint expression \"Tag(`a`)\""),
                arguments("labels", "Label(`a`)",
                        "Label takes 2 arguments, got 1 at column 1 in constraint expression \"Label(`a`)\""),
                arguments("labels", "Label(`a`, `b`) || LabelRegex(`a`, `(`)", "LabelRegex: invalid regular"
                        + " expression: missing closing ) at column 20 in constraint expression"
                        + " \"Label(`a`, `b`) || LabelRegex(`a`, `(`)\""));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalid")
    void refuses(String kind, String expression, String message) {
        assertThatThrownBy(() -> {
            if (kind.equals("tags")) {
                TagConstraint.compile(expression);
            } else {
                LabelConstraint.compile(expression);
            }
        }).isInstanceOf(RuleSyntaxException.class).hasMessage(message);
    }

    @Test
    void keep_their_expression() {
        assertThat(TagConstraint.compile("Tag(`a`)")).hasToString("Tag(`a`)");
        assertThat(LabelConstraint.compile("")).hasToString("");
    }
}
