package dev.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code src/test/services/tofu/check.sh}: {@code tofu fmt -check -recursive terraform/} and the offline HCL
 * parse and reference check of the module and its examples. The first run on a machine builds OpenTofu from the
 * Go module proxy (minutes); CI builds it beforehand in {@code .ci/run}.
 */
class TerraformFormatIT {

    @Test
    void theModuleIsFormattedParsesAndEveryReferenceResolves() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "src/test/services/tofu/check.sh").redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output.lines().filter(l -> l.endsWith(" problems"))).containsExactlyInAnyOrder(
                output.lines().filter(l -> l.startsWith("terraform: ")).findFirst().orElse("no line for terraform/"),
                output.lines().filter(l -> l.startsWith("terraform/examples/fargate-sidecar: ")).findFirst()
                        .orElse("no line for the fargate-sidecar example"),
                output.lines().filter(l -> l.startsWith("terraform/examples/ecs-anywhere: ")).findFirst()
                        .orElse("no line for the ecs-anywhere example"))
                .allMatch(l -> l.endsWith(": 0 problems"));
        assertThat(output).contains("terraform checks passed");
    }
}
