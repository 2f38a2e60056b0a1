package dev.proxy.provider.clustertasks;

import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ecs.model.ContainerInstance;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;

/**
 * The AWS calls of the {@code clusterTasks} provider, and nothing else (no caching, no filtering). List calls follow
 * every page; describe calls take at most {@value #BATCH} items (the caller splits). Every failure, throttling
 * included, is an {@link EcsApiException} naming the operation.
 */
public interface EcsApi {

    /** The most items a describe call takes (ECS's limit for tasks and container instances). */
    int BATCH = 100;

    /** {@code ecs:ListClusters}: every cluster's ARN. */
    List<String> listClusters();

    /** {@code ecs:ListTasks} with {@code desiredStatus=RUNNING}: the task ARNs of a cluster (name or ARN). */
    List<String> listRunningTasks(String cluster);

    /** {@code ecs:DescribeTasks}; tasks ECS no longer knows (stopped since the listing) are left out. */
    List<Task> describeTasks(String cluster, List<String> taskArns);

    /** {@code ecs:DescribeContainerInstances}; instances ECS no longer knows are left out. */
    List<ContainerInstance> describeContainerInstances(String cluster, List<String> containerInstanceArns);

    /** {@code ec2:DescribeInstances}: the instances found among {@code instanceIds} ({@code i-…}), by id. */
    Map<String, Ec2Instance> describeEc2Instances(List<String> instanceIds);

    /**
     * {@code ssm:DescribeInstanceInformation}: the IP addresses of the managed instances found among
     * {@code managedInstanceIds} ({@code mi-…}, ECS Anywhere), by id.
     */
    Map<String, String> describeManagedInstances(List<String> managedInstanceIds);

    /** {@code ecs:DescribeTaskDefinition}. */
    TaskDefinition describeTaskDefinition(String taskDefinitionArn);

    /**
     * An EC2 instance as far as routing needs it.
     *
     * @param privateIp its primary private IPv4 address, null when it has none (terminated)
     * @param state     {@code running}, {@code stopped}, …
     */
    record Ec2Instance(String id, @Nullable String privateIp, String state) {
    }
}
