package dev.proxy.provider.clustertasks;

import dev.proxy.config.install.ClusterTasksConfig;
import dev.proxy.config.install.InstallConfig;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProviderChain;

/**
 * Credentials and region of the {@code clusterTasks} provider's AWS clients, and the settings they share.
 *
 * <ul>
 *   <li>Credentials: {@code accessKeyID} + {@code secretAccessKey} when both are configured, and only those;
 *       otherwise Micronaut AWS's chain (its {@code aws.accessKeyId}/{@code aws.secretKey} properties, then the SDK
 *       default chain: system properties, environment, web identity, shared credentials and config files, container
 *       (task) role, instance role).</li>
 *   <li>Region: {@code region} when configured, else {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION} (which the
 *       Java SDK alone does not read, but the AWS CLI and Traefik users set), else Micronaut AWS's chain (its
 *       {@code aws.region} property, the {@code aws.region} system property, the profile, instance metadata).</li>
 *   <li>Endpoints: the SDK's own, which honours {@code AWS_ENDPOINT_URL} and {@code AWS_ENDPOINT_URL_ECS} (or the
 *       system properties {@code aws.endpointUrl}, {@code aws.endpointUrlEcs}): that is how tests reach the
 *       emulator.</li>
 * </ul>
 * Nothing here calls AWS or instance metadata until a client is built, on the provider's polling thread.
 */
@Singleton
@Requires(condition = ClusterTasksEnabled.class)
public final class ClusterTasksAws {

    /** Qualifies this provider's clients: Micronaut AWS defines an unqualified {@code SsmClient} of its own. */
    public static final String QUALIFIER = "clusterTasks";

    // A poll must not hang on a black-holed endpoint; the SDK still retries throttling within these bounds.
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final AwsCredentialsProviderChain credentials;
    private final AwsRegionProviderChain region;

    @Inject
    public ClusterTasksAws(InstallConfig install, BeanProvider<AwsCredentialsProviderChain> defaultCredentials,
                           BeanProvider<AwsRegionProviderChain> defaultRegion) {
        ClusterTasksConfig config = Objects.requireNonNull(install.providers().clusterTasks(), "providers.clusterTasks");
        this.credentials = config.hasStaticCredentials()
                ? AwsCredentialsProviderChain.of(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(config.accessKeyID().reveal(), config.secretAccessKey().reveal())))
                : defaultCredentials.get();
        this.region = new AwsRegionProviderChain(
                fixed("providers.clusterTasks.region", config.region()),
                fixed("AWS_REGION", System.getenv("AWS_REGION")),
                fixed("AWS_DEFAULT_REGION", System.getenv("AWS_DEFAULT_REGION")),
                defaultRegion.get());
    }

    public AwsCredentialsProviderChain credentials() {
        return credentials;
    }

    public AwsRegionProviderChain region() {
        return region;
    }

    /** The shared client settings: per-attempt and per-call timeouts on top of what Micronaut AWS configured. */
    static <B extends AwsClientBuilder<B, ?>> B withTimeouts(B builder) {
        ClientOverrideConfiguration current = builder.overrideConfiguration();
        return builder.overrideConfiguration((current == null ? ClientOverrideConfiguration.builder() : current.toBuilder())
                .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                .apiCallTimeout(CALL_TIMEOUT)
                .build());
    }

    /** A region given by name, or none (the chain moves on). */
    private static AwsRegionProvider fixed(String source, String name) {
        return () -> {
            if (name == null || name.isBlank()) {
                throw SdkClientException.create("no region in " + source);
            }
            return Region.of(name.trim());
        };
    }
}
