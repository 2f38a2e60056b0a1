package dev.proxy.config.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DefaultRuleTest {

    static Stream<Arguments> normalized() {
        return Stream.of(
                arguments("my_svc.v2", "my-svc-v2"),
                arguments("web", "web"),
                arguments("Web-API", "Web-API"),
                arguments("--a--", "a"),
                arguments("a..b__c", "a-b-c"),
                arguments("", ""),
                arguments("_.-/", ""),
                arguments("service:web", "service-web"),
                arguments("family-web-app", "family-web-app"),
                arguments("a b\tc", "a-b-c"),
                arguments("Über.Straße", "Über-Straße"),
                arguments("服务/api", "服务-api"),
                arguments("καλη_μέρα", "καλη-μέρα"),
                arguments("v²", "v²"),
                arguments("Ⅻ.1", "Ⅻ-1"),
                arguments("a😀b", "a-b"),
                arguments("a\u00A0b", "a-b"),
                arguments("x\u0301y", "x-y"));
    }

    @ParameterizedTest(name = "normalize \"{0}\" = \"{1}\"")
    @MethodSource("normalized")
    void normalize(String name, String expected) {
        assertThat(DefaultRule.normalize(name)).isEqualTo(expected);
    }

    private static final Map<String, String> LABELS = Map.of("host", "app.example", "proxy.domain", "example.org",
            "empty", "");

    static Stream<Arguments> rendered() {
        return Stream.of(
                arguments("literal only", "Host(`example.com`)", "my_svc", "Host(`example.com`)"),
                arguments("empty template", "", "my_svc", ""),
                arguments("the seed's default", "Host(`{{ normalize .Name }}`)", "my_svc.v2", "Host(`my-svc-v2`)"),
                arguments("raw name", "Host(`{{ .Name }}`)", "my_svc", "Host(`my_svc`)"),
                arguments("no spaces in the action", "{{.Name}}", "my_svc", "my_svc"),
                arguments("pipeline", "{{ .Name | lower }}", "My_Svc", "my_svc"),
                arguments("long pipeline", "{{ .Name | trimSuffix \"-svc\" | normalize | upper }}", "pay_ments-svc", "PAY-MENTS"),
                arguments("lower", "{{ lower .Name }}", "ÄB", "äb"),
                arguments("upper", "{{ upper .Name }}", "ab", "AB"),
                arguments("trim, Unicode spaces too", "[{{ trim .Name }}]", " \t\u00A0ab \u2003", "[ab]"),
                arguments("trimPrefix", "{{ trimPrefix \"svc-\" .Name }}", "svc-web", "web"),
                arguments("trimPrefix without the prefix", "{{ .Name | trimPrefix \"svc-\" }}", "web", "web"),
                arguments("trimSuffix", "{{ trimSuffix \".service\" .Name }}", "web.service", "web"),
                arguments("replace every occurrence", "{{ replace \"_\" \"-\" .Name }}", "a_b_c", "a-b-c"),
                arguments("replace empty old (Go's rule)", "{{ replace \"\" \"-\" .Name }}", "ab", "-a-b-"),
                arguments("default when empty", "{{ index .Labels \"empty\" | default \"fallback\" }}", "web", "fallback"),
                arguments("default when given", "{{ default \"fallback\" .Name }}", "web", "web"),
                arguments("index", "Host(`{{ index .Labels \"host\" }}`)", "web", "Host(`app.example`)"),
                arguments("index with a raw string key", "{{ index .Labels `proxy.domain` }}", "web", "example.org"),
                arguments("index of a missing key is empty", "{{ index .Labels \"nope\" }}", "web", ""),
                arguments("parentheses", "{{ default (normalize .Name) (index .Labels \"nope\") }}", "a_b", "a-b"),
                arguments("two actions", "Host(`{{ normalize .Name }}.{{ index .Labels \"proxy.domain\" }}`)", "my.app",
                        "Host(`my-app.example.org`)"),
                arguments("trim markers", "Host(`  {{- .Name -}}  `)", "web", "Host(`web`)"),
                arguments("string escapes", "{{ replace \"\\\"\" \"'\" .Name }}", "a\"b", "a'b"),
                arguments("text braces are text", "}} {", "web", "}} {"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("rendered")
    void render(String description, String template, String name, String expected) {
        assertThat(DefaultRule.compile(template).render(name, LABELS)).isEqualTo(expected);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("unclosed action", "Host(`{{ .Name", "at position 15: unclosed action: \"}}\" expected"),
                arguments("unknown function", "{{ printf \"%s\" .Name }}", "at position 4: unknown function \"printf\" "
                        + "(supported: normalize, lower, upper, trim, trimPrefix, trimSuffix, replace, default, index)"),
                arguments("control structures are not supported", "{{ if .Name }}x{{ end }}", "at position 4: unknown function \"if\" "
                        + "(supported: normalize, lower, upper, trim, trimPrefix, trimSuffix, replace, default, index)"),
                arguments("variables are not supported", "{{ $x := .Name }}",
                        "at position 4: expected .Name, .Labels, a \"string\", a function or ("),
                arguments("fields are case-sensitive", "{{ .name }}", "at position 4: unknown field .name (the fields are .Name and .Labels)"),
                arguments("printing the labels", "a{{ .Labels }}", "at position 2: cannot print .Labels; write index .Labels \"key\""),
                arguments("label as a field", "{{ .Labels.host }}", "at position 4: fields of .Labels are read with index .Labels \"key\""),
                arguments("too few arguments", "{{ lower }}", "at position 4: function lower takes 1 argument, got 0"),
                arguments("too many arguments", "{{ .Name | replace \"a\" }}", "at position 12: function replace takes 3 arguments, got 2"),
                arguments("index needs the labels", "{{ index .Name \"x\" }}", "at position 4: function index needs .Labels as argument 1"),
                arguments("a string function given the labels", "{{ lower .Labels }}",
                        "at position 4: function lower: argument 1 must be a string, not .Labels"),
                arguments("a function name as an argument", "{{ default lower .Name }}", "at position 12: function lower takes 1 argument, got 0"),
                arguments("a value with arguments", "{{ \"a\" \"b\" }}", "at position 8: only a function takes arguments"),
                arguments("a value piped into a value", "{{ .Name | .Name }}", "at position 12: only a function can receive a piped value"),
                arguments("an empty action", "{{ }}", "at position 4: expected .Name, .Labels, a \"string\", a function or ("),
                arguments("a pipe to nothing", "{{ .Name | }}", "at position 12: expected .Name, .Labels, a \"string\", a function or ("),
                arguments("unterminated string", "{{ lower \"abc }}", "at position 10: unterminated string"),
                arguments("unterminated raw string", "{{ lower `abc }}", "at position 10: unterminated raw string"),
                arguments("unsupported escape", "{{ lower \"\\x41\" }}", "at position 11: unsupported escape \\x (supported: \\\\ \\\" \\n \\t)"),
                arguments("unclosed parenthesis", "{{ lower (trim .Name }}", "at position 22: \")\" expected"),
                arguments("numbers are not supported", "{{ index .Labels 1 }}",
                        "at position 18: expected .Name, .Labels, a \"string\", a function or ("));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("refused")
    void compile_refuses_with_the_position(String description, String template, String problem) {
        assertThatThrownBy(() -> DefaultRule.compile(template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("defaultRule \"" + template + "\": " + problem);
    }

    @Test
    void bounds_template_length_and_nesting() {
        assertThatThrownBy(() -> DefaultRule.compile("x".repeat(4097)))
                .hasMessageEndingWith(": longer than 4096 characters");
        String deep = "{{ " + "lower (".repeat(17) + ".Name" + ")".repeat(17) + " }}";
        assertThatThrownBy(() -> DefaultRule.compile(deep)).hasMessageContaining("parentheses nested deeper than 16");
        String allowed = "{{ " + "lower (".repeat(16) + ".Name" + ")".repeat(16) + " }}";
        assertThat(DefaultRule.compile(allowed).render("AB", Map.of())).isEqualTo("ab");
    }
}
