package dev.proxy.provider.clustertasks;

import dev.proxy.config.label.LabelDecoder;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.BeanInstantiationException;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ContainerInstance;
import software.amazon.awssdk.services.ecs.model.DesiredStatus;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.InstanceInformation;
import software.amazon.awssdk.services.ssm.model.InstanceInformationStringFilter;

/**
 * {@link EcsApi} on the AWS SDK v2 clients. The EC2 and SSM clients are created on first use: a cluster of Fargate
 * tasks never needs them, and their classes are large.
 */
@Singleton
@Requires(condition = ClusterTasksEnabled.class)
public final class SdkEcsApi implements EcsApi {

    /** SSM's limit of values in one {@code InstanceIds} filter and of results in one page. */
    static final int SSM_BATCH = 50;

    // ECS and SSM say AccessDeniedException, EC2 UnauthorizedOperation; older APIs AccessDenied.
    private static final Set<String> ACCESS_DENIED = Set.of("AccessDeniedException", "AccessDenied",
            "UnauthorizedOperation", "UnauthorizedException");

    private final BeanProvider<EcsClient> ecs;
    private final BeanProvider<Ec2Client> ec2;
    private final BeanProvider<SsmClient> ssm;

    public SdkEcsApi(@Named(ClusterTasksAws.QUALIFIER) BeanProvider<EcsClient> ecs,
                     @Named(ClusterTasksAws.QUALIFIER) BeanProvider<Ec2Client> ec2,
                     @Named(ClusterTasksAws.QUALIFIER) BeanProvider<SsmClient> ssm) {
        this.ecs = ecs;
        this.ec2 = ec2;
        this.ssm = ssm;
    }

    @Override
    public List<String> listClusters() {
        return call("ecs:ListClusters", () -> {
            List<String> arns = new ArrayList<>();
            ecs.get().listClustersPaginator(r -> r.maxResults(BATCH)).clusterArns().forEach(arns::add);
            return arns;
        });
    }

    @Override
    public List<String> listRunningTasks(String cluster) {
        return call("ecs:ListTasks", () -> {
            List<String> arns = new ArrayList<>();
            ecs.get().listTasksPaginator(r -> r.cluster(cluster).desiredStatus(DesiredStatus.RUNNING).maxResults(BATCH))
                    .taskArns().forEach(arns::add);
            return arns;
        });
    }

    @Override
    public List<Task> describeTasks(String cluster, List<String> taskArns) {
        checkBatch(taskArns.size(), BATCH);
        return call("ecs:DescribeTasks", () -> ecs.get().describeTasks(r -> r.cluster(cluster).tasks(taskArns)).tasks());
    }

    @Override
    public List<ContainerInstance> describeContainerInstances(String cluster, List<String> containerInstanceArns) {
        checkBatch(containerInstanceArns.size(), BATCH);
        return call("ecs:DescribeContainerInstances", () -> ecs.get()
                .describeContainerInstances(r -> r.cluster(cluster).containerInstances(containerInstanceArns))
                .containerInstances());
    }

    @Override
    public Map<String, Ec2Instance> describeEc2Instances(List<String> instanceIds) {
        checkBatch(instanceIds.size(), BATCH);
        return call("ec2:DescribeInstances", () -> {
            Map<String, Ec2Instance> out = new LinkedHashMap<>();
            // A filter, not InstanceIds: an id EC2 no longer knows would fail the whole call (and the refresh).
            Filter ids = Filter.builder().name("instance-id").values(instanceIds).build();
            for (Instance i : ec2.get().describeInstancesPaginator(r -> r.filters(ids)).reservations().stream()
                    .flatMap(r -> r.instances().stream()).toList()) {
                out.put(i.instanceId(), new Ec2Instance(i.instanceId(), i.privateIpAddress(),
                        i.state() == null ? "unknown" : i.state().nameAsString()));
            }
            return out;
        });
    }

    @Override
    public Map<String, String> describeManagedInstances(List<String> managedInstanceIds) {
        checkBatch(managedInstanceIds.size(), SSM_BATCH);
        return call("ssm:DescribeInstanceInformation", () -> {
            Map<String, String> out = new LinkedHashMap<>();
            InstanceInformationStringFilter ids = InstanceInformationStringFilter.builder().key("InstanceIds")
                    .values(managedInstanceIds).build();
            for (InstanceInformation i : ssm.get()
                    .describeInstanceInformationPaginator(r -> r.filters(ids).maxResults(SSM_BATCH))
                    .instanceInformationList()) {
                if (i.ipAddress() != null) {
                    out.put(i.instanceId(), i.ipAddress());
                }
            }
            return out;
        });
    }

    @Override
    public TaskDefinition describeTaskDefinition(String taskDefinitionArn) {
        return call("ecs:DescribeTaskDefinition",
                () -> ecs.get().describeTaskDefinition(r -> r.taskDefinition(taskDefinitionArn)).taskDefinition());
    }

    private static void checkBatch(int size, int limit) {
        if (size > limit) {
            throw new IllegalArgumentException(size + " items in one call; the limit is " + limit);
        }
    }

    /** Runs one operation (all its pages), turning any SDK failure into an {@link EcsApiException} naming it. */
    static <T> T call(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (AwsServiceException e) {
            String code = e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null ? "HTTP " + e.statusCode()
                    : e.awsErrorDetails().errorCode();
            String detail = e.awsErrorDetails() == null || e.awsErrorDetails().errorMessage() == null ? ""
                    : ": " + LabelDecoder.shown(e.awsErrorDetails().errorMessage(), 300);
            if (e.isThrottlingException()) {
                throw new EcsApiException(operation, EcsApiException.Kind.THROTTLED,
                        operation + " throttled by AWS (" + code + detail + ")", e);
            }
            if (ACCESS_DENIED.contains(code)) {
                throw new EcsApiException(operation, EcsApiException.Kind.ACCESS_DENIED,
                        operation + " denied (" + code + "): the IAM policy of the proxy's credentials must allow "
                                + operation, e);
            }
            throw new EcsApiException(operation, EcsApiException.Kind.FAILED,
                    operation + " failed: " + code + " (HTTP " + e.statusCode() + ")" + detail, e);
        } catch (SdkException e) {
            throw new EcsApiException(operation, EcsApiException.Kind.FAILED,
                    operation + " failed: " + LabelDecoder.shown(String.valueOf(e.getMessage()), 300), e);
        } catch (BeanInstantiationException e) {
            // The clients are made on first use; no region, for one, surfaces here, deep in the bean's causes.
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new EcsApiException(operation, EcsApiException.Kind.FAILED, operation + ": cannot create the AWS client: "
                    + LabelDecoder.shown(String.valueOf(root.getMessage()), 300), e);
        }
    }
}
