package dev.proxy.provider.clustertasks;

import dev.proxy.testing.aws.MotoServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.HealthCheck;
import software.amazon.awssdk.services.ecs.model.LaunchType;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.PortMapping;
import software.amazon.awssdk.services.ecs.model.Task;

/**
 * Seeds the emulator through the ordinary ECS and EC2 APIs (see {@code src/test/services/moto/README.md}): clusters,
 * task definitions, Fargate tasks, EC2 and ECS Anywhere container instances, tasks placed on them.
 */
final class EcsSeed implements AutoCloseable {

    /** An EC2 or ECS Anywhere container instance. */
    record Instance(String containerInstanceArn, String instanceId) {
    }

    static final Region REGION = Region.US_EAST_1;

    final MotoServer moto;
    final EcsClient ecs;
    final Ec2Client ec2;

    EcsSeed(MotoServer moto) {
        this.moto = moto;
        StaticCredentialsProvider keys = StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIAPROXYSEEDFAKE000", "proxy-seed-fake-secret"));
        // Seeding is not under test: one attempt, so that a seeding mistake shows at once.
        ClientOverrideConfiguration once = ClientOverrideConfiguration.builder()
                .retryStrategy(b -> b.maxAttempts(1)).build();
        this.ecs = EcsClient.builder().endpointOverride(moto.endpoint()).region(REGION).credentialsProvider(keys)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(once).build();
        this.ec2 = Ec2Client.builder().endpointOverride(moto.endpoint()).region(REGION).credentialsProvider(keys)
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(once).build();
    }

    private static final List<String> SDK_PROPERTIES = List.of("aws.endpointUrl", "aws.accessKeyId",
            "aws.secretAccessKey", "aws.region");

    /**
     * Points the AWS SDK's standard settings at the emulator, as {@code AWS_ENDPOINT_URL} etc. would for a separate
     * process, so that clients built the way the program builds them talk to it. Undone by {@link #clearSdkSettings}.
     */
    static void pointSdkAt(MotoServer server) {
        System.setProperty("aws.endpointUrl", server.endpoint().toString());
        System.setProperty("aws.accessKeyId", server.env().get("AWS_ACCESS_KEY_ID"));
        System.setProperty("aws.secretAccessKey", server.env().get("AWS_SECRET_ACCESS_KEY"));
        System.setProperty("aws.region", REGION.id());
    }

    static void clearSdkSettings() {
        SDK_PROPERTIES.forEach(System::clearProperty);
    }

    String cluster(String name) {
        ecs.createCluster(r -> r.clusterName(name));
        return name;
    }

    /** A container definition publishing {@code containerPort} (host port 0: dynamic in bridge mode) with labels. */
    static ContainerDefinition container(String name, int containerPort, String... labels) {
        Map<String, String> docker = new LinkedHashMap<>();
        for (String l : labels) {
            int eq = l.indexOf('=');
            docker.put(l.substring(0, eq), l.substring(eq + 1));
        }
        return ContainerDefinition.builder().name(name).image("nginx").memory(64).dockerLabels(docker)
                .portMappings(PortMapping.builder().containerPort(containerPort).hostPort(0).build()).build();
    }

    /** The same container with a health check: its task starts HEALTHY in the emulator instead of UNKNOWN. */
    static ContainerDefinition healthChecked(ContainerDefinition c) {
        return c.toBuilder().healthCheck(HealthCheck.builder().command("CMD-SHELL", "true").build()).build();
    }

    String fargateDefinition(String family, ContainerDefinition... containers) {
        return ecs.registerTaskDefinition(r -> r.family(family).networkMode(NetworkMode.AWSVPC)
                .requiresCompatibilitiesWithStrings("FARGATE").cpu("256").memory("512")
                .containerDefinitions(containers)).taskDefinition().taskDefinitionArn();
    }

    String ec2Definition(String family, NetworkMode mode, ContainerDefinition... containers) {
        return ecs.registerTaskDefinition(r -> r.family(family).networkMode(mode)
                .containerDefinitions(containers)).taskDefinition().taskDefinitionArn();
    }

    String anywhereDefinition(String family, ContainerDefinition... containers) {
        return ecs.registerTaskDefinition(r -> r.family(family).networkMode(NetworkMode.BRIDGE)
                .requiresCompatibilitiesWithStrings("EXTERNAL").containerDefinitions(containers))
                .taskDefinition().taskDefinitionArn();
    }

    /** Fargate tasks in group {@code group} (null: moto's {@code family:<family>}). */
    List<String> runFargate(String cluster, String definition, String group, int count) {
        String subnet = ec2.describeSubnets(r -> r.filters(f -> f.name("default-for-az").values("true")))
                .subnets().get(0).subnetId();
        String securityGroup = ec2.describeSecurityGroups(r -> r.groupNames("default")).securityGroups().get(0).groupId();
        List<String> arns = new ArrayList<>();
        while (arns.size() < count) {
            int batch = Math.min(10, count - arns.size()); // RunTask starts at most 10 tasks per call
            ecs.runTask(r -> r.cluster(cluster).taskDefinition(definition).launchType(LaunchType.FARGATE).count(batch)
                            .group(group)
                            .networkConfiguration(n -> n.awsvpcConfiguration(a -> a.subnets(subnet).securityGroups(securityGroup))))
                    .tasks().forEach(t -> arns.add(t.taskArn()));
        }
        return arns;
    }

    String runFargate(String cluster, String definition, String group) {
        return runFargate(cluster, definition, group, 1).get(0);
    }

    /** An EC2 instance at {@code ip}, registered as a container instance of {@code cluster}. */
    Instance ec2Instance(String cluster, String ip) {
        String id = ec2.runInstances(r -> r.imageId("ami-12345678").minCount(1).maxCount(1)).instances().get(0).instanceId();
        moto.setInstancePrivateIp(id, ip);
        return register(cluster, id);
    }

    /** An ECS Anywhere (SSM managed) instance at {@code ip}, registered as a container instance of {@code cluster}. */
    Instance anywhereInstance(String cluster, String managedInstanceId, String ip) {
        moto.registerManagedInstance(managedInstanceId, ip);
        return register(cluster, managedInstanceId);
    }

    private Instance register(String cluster, String instanceId) {
        String arn = ecs.registerContainerInstance(r -> r.cluster(cluster)
                        .instanceIdentityDocument("{\"instanceId\":\"" + instanceId + "\"}"))
                .containerInstance().containerInstanceArn();
        return new Instance(arn, instanceId);
    }

    String startTask(String cluster, String definition, Instance on, String group) {
        return ecs.startTask(r -> r.cluster(cluster).taskDefinition(definition).containerInstances(on.containerInstanceArn())
                .group(group)).tasks().get(0).taskArn();
    }

    void stopTask(String cluster, String taskArn) {
        ecs.stopTask(r -> r.cluster(cluster).task(taskArn));
    }

    List<Task> describe(String cluster, String... taskArns) {
        return ecs.describeTasks(r -> r.cluster(cluster).tasks(Arrays.asList(taskArns))).tasks();
    }

    @Override
    public void close() {
        ecs.close();
        ec2.close();
    }
}
