package dev.proxy.provider.clustertasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.proxy.provider.clustertasks.EcsApiException.Kind;
import java.util.Collections;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/** How AWS failures become the provider's errors: the operation named, throttling and missing permissions told apart. */
class SdkEcsApiTest {

    private static AwsServiceException aws(String code, int status, String message) {
        return AwsServiceException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).build();
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                arguments("ECS throttling", "ecs:DescribeTaskDefinition", aws("ThrottlingException", 400, "Rate exceeded"),
                        Kind.THROTTLED, "ecs:DescribeTaskDefinition throttled by AWS (ThrottlingException: Rate exceeded)"),
                arguments("EC2 throttling", "ec2:DescribeInstances", aws("RequestLimitExceeded", 503, "Request limit exceeded."),
                        Kind.THROTTLED, "ec2:DescribeInstances throttled by AWS (RequestLimitExceeded: Request limit exceeded.)"),
                arguments("ECS access denied names the IAM action", "ecs:ListTasks",
                        aws("AccessDeniedException", 400, "User: arn:aws:sts::1:assumed-role/proxy is not authorized"),
                        Kind.ACCESS_DENIED,
                        "ecs:ListTasks denied (AccessDeniedException): the IAM policy of the proxy's credentials must allow ecs:ListTasks"),
                arguments("EC2 unauthorized names the IAM action", "ec2:DescribeInstances",
                        aws("UnauthorizedOperation", 403, "You are not authorized"), Kind.ACCESS_DENIED,
                        "ec2:DescribeInstances denied (UnauthorizedOperation): the IAM policy of the proxy's credentials must allow ec2:DescribeInstances"),
                arguments("SSM access denied", "ssm:DescribeInstanceInformation", aws("AccessDeniedException", 400, "no"),
                        Kind.ACCESS_DENIED,
                        "ssm:DescribeInstanceInformation denied (AccessDeniedException): the IAM policy of the proxy's credentials must allow ssm:DescribeInstanceInformation"),
                arguments("missing cluster", "ecs:ListTasks", aws("ClusterNotFoundException", 400, "Cluster not found."),
                        Kind.FAILED, "ecs:ListTasks failed: ClusterNotFoundException (HTTP 400): Cluster not found."),
                arguments("server error, control characters escaped", "ecs:DescribeTasks", aws("ServerException", 500, "boom\r\nX: y"),
                        Kind.FAILED, "ecs:DescribeTasks failed: ServerException (HTTP 500): boom\\r\\nX: y"),
                arguments("unreachable endpoint", "ecs:ListClusters",
                        SdkClientException.create("Unable to execute HTTP request: Connection refused"), Kind.FAILED,
                        "ecs:ListClusters failed: Unable to execute HTTP request: Connection refused"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void namesTheOperationAndTheKindOfFailure(String description, String operation, RuntimeException thrown,
                                              Kind kind, String message) {
        assertThatThrownBy(() -> SdkEcsApi.call(operation, () -> {
            throw thrown;
        })).isInstanceOfSatisfying(EcsApiException.class, e -> {
            assertThat(e.kind()).isEqualTo(kind);
            assertThat(e.operation()).isEqualTo(operation);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void describeCallsRefuseMoreThanTheBatchLimitBeforeCallingAws() {
        SdkEcsApi api = new SdkEcsApi(null, null, null);

        assertThatThrownBy(() -> api.describeTasks("c", Collections.nCopies(101, "t")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("101 items in one call; the limit is 100");
        assertThatThrownBy(() -> api.describeManagedInstances(Collections.nCopies(51, "mi-1")))
                .hasMessage("51 items in one call; the limit is 50");
    }
}
