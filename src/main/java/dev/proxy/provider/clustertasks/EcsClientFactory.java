package dev.proxy.provider.clustertasks;

import io.micronaut.aws.sdk.v2.service.AWSServiceConfiguration;
import io.micronaut.aws.sdk.v2.service.AwsClientFactory;
import io.micronaut.aws.ua.UserAgentProvider;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.ecs.EcsAsyncClient;
import software.amazon.awssdk.services.ecs.EcsAsyncClientBuilder;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.EcsClientBuilder;

/**
 * The ECS client in Micronaut AWS's style (it has no such factory), with the {@code clusterTasks} provider's
 * credentials and region ({@link ClusterTasksAws}), on the blocking HTTP client. Only the synchronous client is a
 * bean: no async HTTP client is on the classpath.
 */
@Factory
@Requires(condition = ClusterTasksEnabled.class)
public class EcsClientFactory extends AwsClientFactory<EcsClientBuilder, EcsAsyncClientBuilder, EcsClient, EcsAsyncClient> {

    protected EcsClientFactory(ClusterTasksAws aws, @Nullable UserAgentProvider userAgent,
                 @Nullable @Named("ecs") AWSServiceConfiguration service) {
        super(aws.credentials(), aws.region(), userAgent, service);
    }

    @Override
    protected EcsClientBuilder createSyncBuilder() {
        return EcsClient.builder();
    }

    @Override
    protected EcsAsyncClientBuilder createAsyncBuilder() {
        return EcsAsyncClient.builder();
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    public EcsClientBuilder syncBuilder(SdkHttpClient httpClient) {
        return ClusterTasksAws.withTimeouts(super.syncBuilder(httpClient));
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    @Bean(preDestroy = "close")
    public EcsClient syncClient(@Named(ClusterTasksAws.QUALIFIER) EcsClientBuilder builder) {
        return super.syncClient(builder);
    }
}
