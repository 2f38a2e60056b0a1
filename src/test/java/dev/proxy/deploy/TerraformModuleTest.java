package dev.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Terraform module against the code it deploys: its IAM policy grants, action for action, the AWS calls the
 * clusterTasks provider makes, each under the condition that makes the provider call it; its proxy container is
 * the one of {@code ecs/*.json} (health check, ping in the environment, logs); the Consul token only by reference.
 */
class TerraformModuleTest {

    private static final Path SDK_CALLS = Path.of("src/main/java/dev/proxy/provider/clustertasks/SdkEcsApi.java");
    private static final Path IAM = Path.of("terraform/iam.tf");
    private static final Path MAIN = Path.of("terraform/main.tf");
    private static final Pattern ACTION = Pattern.compile("\"((?:ecs|ec2|ssm):[A-Za-z]+)\"");

    /** Every {@code call("service:Action", …)} of the provider's AWS client: one per AWS operation it performs. */
    static Set<String> providerCalls() throws IOException {
        Matcher m = Pattern.compile("call\\(\"([a-z0-9]+:[A-Za-z]+)\"").matcher(Files.readString(SDK_CALLS));
        Set<String> calls = new TreeSet<>();
        while (m.find()) {
            calls.add(m.group(1));
        }
        return calls;
    }

    /** The {@code provider_actions} local of iam.tf, as text (up to the closing parenthesis of its concat). */
    private static String providerActionsBlock() throws IOException {
        String iam = Files.readString(IAM);
        int start = iam.indexOf("provider_actions = concat(");
        assertThat(start).as("provider_actions in iam.tf").isNotNegative();
        return iam.substring(start, iam.indexOf("\n  )", start));
    }

    private static Set<String> actions(String text) {
        Matcher m = ACTION.matcher(text);
        Set<String> out = new TreeSet<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theTaskRoleGrantsExactlyTheCallsTheProviderMakes() throws IOException {
        assertThat(providerCalls()).as("the provider's calls").containsExactly("ec2:DescribeInstances",
                "ecs:DescribeContainerInstances", "ecs:DescribeTaskDefinition", "ecs:DescribeTasks",
                "ecs:ListClusters", "ecs:ListTasks", "ssm:DescribeInstanceInformation");
        assertThat(actions(providerActionsBlock())).isEqualTo(providerCalls());
        // The task role has one policy, and its only actions are that list (the execution role's are ECS's own).
        String iam = Files.readString(IAM);
        assertThat(Pattern.compile("role\\s*=\\s*aws_iam_role\\.task\\.").matcher(iam).results().count()).isOne();
        assertThat(iam).containsPattern("resource \"aws_iam_role_policy\" \"discovery\" \\{\\s*name\\s*=\\s*\"[^\"]+\"\\s*"
                + "role\\s*=\\s*aws_iam_role\\.task\\.id\\s*policy\\s*=\\s*data\\.aws_iam_policy_document\\.discovery\\.json");
        assertThat(iam).containsPattern("data \"aws_iam_policy_document\" \"discovery\" \\{\\s*statement \\{\\s*"
                + "sid\\s*=\\s*\"ClusterTasksDiscovery\"\\s*actions\\s*=\\s*local\\.provider_actions\\s");
    }

    @Test
    void optionalCallsAreGrantedOnlyWhenTheConfigurationMakesThem() throws IOException {
        String block = providerActionsBlock();
        assertThat(block).contains("var.auto_discover_clusters ? [\"ecs:ListClusters\"] : []")
                .contains("var.ecs_anywhere ? [\"ssm:DescribeInstanceInformation\"] : []");
        // and the same variables turn the provider options on
        assertThat(Files.readString(MAIN))
                .contains("var.auto_discover_clusters ? [\"--providers.clusterTasks.autoDiscoverClusters=true\"]")
                .contains("var.ecs_anywhere ? [\"--providers.clusterTasks.ecsAnywhere=true\"]");
    }

    @Test
    void theProxyContainerIsTheOneOfTheEcsFiles() throws IOException {
        String main = Files.readString(MAIN);
        String healthcheck = Stream.concat(Stream.of("CMD"),
                DockerfileTest.healthcheckCommand().stream()).map(s -> "\"" + s + "\"")
                .reduce((a, b) -> a + ", " + b).orElseThrow();
        assertThat(main).contains("command     = [" + healthcheck + "]", "interval    = 10", "timeout     = 5",
                "retries     = 3", "startPeriod = 20", "{ name = \"PROXY_PING\", value = \"true\" }",
                "logDriver = \"awslogs\"", "\"awslogs-stream-prefix\" = \"proxy\"");
        for (String ecsFile : List.of("fargate-sidecar.json", "ec2-bridge.json", "ecs-anywhere.json",
                "consul-connect-sidecar.json")) {
            String json = Files.readString(Path.of("ecs", ecsFile));
            assertThat(json).contains("\"interval\": 10", "\"timeout\": 5", "\"retries\": 3", "\"startPeriod\": 20",
                    "\"name\": \"PROXY_PING\"", "\"awslogs-stream-prefix\": \"proxy\"");
        }
    }

    @Test
    void theConsulTokenIsOnlyReferencedNeverPassedAsText() throws IOException {
        String variables = Files.readString(Path.of("terraform/variables.tf"));
        assertThat(variables).contains("variable \"consul_token_arn\"").doesNotContain("variable \"consul_token\"");
        String main = Files.readString(MAIN);
        assertThat(main).contains("{ name = \"CONSUL_HTTP_TOKEN\", valueFrom = var.consul_token_arn }")
                .doesNotContainPattern("CONSUL_HTTP_TOKEN\", value =");
    }
}
