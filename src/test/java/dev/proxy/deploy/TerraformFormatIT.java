package dev.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code src/test/services/tofu/check.sh}: {@code tofu fmt -check -recursive terraform/} and the offline HCL
 * parse and reference check (hclcheck) of the module and its examples; and, on a copy of the module with one
 * mistake of each kind, that both tools catch them. The first run on a machine builds OpenTofu from the Go module
 * proxy (minutes); CI builds it beforehand in {@code .ci/run}.
 */
class TerraformFormatIT {

    private record Run(int exit, String output) {
    }

    private static Run run(Path dir, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toAbsolutePath().toFile()).redirectErrorStream(true);
        builder.environment().put("TF_CLI_CONFIG_FILE", "/dev/null");
        Process p = builder.start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.MINUTES)).as("finished: %s", List.of(command)).isTrue();
        return new Run(p.exitValue(), output);
    }

    @Test
    void theModuleIsFormattedParsesAndEveryReferenceResolves() throws Exception {
        Run check = run(Path.of(""), "bash", "src/test/services/tofu/check.sh");

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output().lines().filter(l -> l.endsWith(" problems")).map(l -> l.replaceAll(":.*:", ":")))
                .containsExactlyInAnyOrder("terraform: 0 problems", "terraform/examples/ecs-anywhere: 0 problems",
                        "terraform/examples/fargate-sidecar: 0 problems");
    }

    @Test
    void aMisformattedFileAndBrokenReferencesAreCaught(@TempDir Path copy) throws Exception {
        Path tools = Path.of(run(Path.of(""), "bash", "src/test/services/tofu/build.sh").output().strip()
                .lines().reduce((a, b) -> b).orElseThrow());
        try (Stream<Path> files = Files.walk(Path.of("terraform"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path target = copy.resolve(Path.of("terraform").relativize(f));
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
        replace(copy.resolve("main.tf"), "  name      = \"proxy\"", "  name = \"proxy\"");
        replace(copy.resolve("main.tf"), "image     = var.image", "image     = var.imagee");
        Path example = copy.resolve("examples/fargate-sidecar/main.tf");
        replace(example, "  image              =", "  imag               =");
        replace(example, "module.proxy.task_role_arn", "module.proxy.task_role");

        Run fmt = run(copy, tools.resolve("tofu").toString(), "fmt", "-check", "-recursive", ".");
        assertThat(fmt.exit()).as(fmt.output()).isNotZero();
        assertThat(fmt.output().strip()).isEqualTo("main.tf");

        Run hcl = run(copy, tools.resolve("hclcheck").toString(), ".", "examples/fargate-sidecar");
        assertThat(hcl.exit()).isEqualTo(1);
        assertThat(hcl.output().lines().filter(l -> !l.endsWith(" problems")).map(l -> l.replaceAll("^\\S+: ", "")))
                .containsExactlyInAnyOrder("undeclared variable var.imagee",
                        "module proxy has no variable \"imag\"",
                        "module proxy: required variable \"image\" not set",
                        "module proxy has no output \"task_role\"");
    }

    private static void replace(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).contains(from);
        Files.writeString(file, text.replace(from, to));
    }
}
