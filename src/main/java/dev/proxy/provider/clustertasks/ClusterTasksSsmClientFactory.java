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
import software.amazon.awssdk.services.ssm.SsmAsyncClient;
import software.amazon.awssdk.services.ssm.SsmAsyncClientBuilder;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.SsmClientBuilder;

/**
 * The SSM client (ECS Anywhere instance addresses) of the {@code clusterTasks} provider, with its credentials and
 * region ({@link ClusterTasksAws}), on the blocking HTTP client. Micronaut AWS's own {@code SsmClientFactory} makes an
 * unqualified client with its default credentials; this one is qualified {@value ClusterTasksAws#QUALIFIER}. Only the
 * synchronous client is a bean: no async HTTP client is on the classpath.
 */
@Factory
@Requires(condition = ClusterTasksEnabled.class)
public class ClusterTasksSsmClientFactory extends AwsClientFactory<SsmClientBuilder, SsmAsyncClientBuilder, SsmClient, SsmAsyncClient> {

    protected ClusterTasksSsmClientFactory(ClusterTasksAws aws, @Nullable UserAgentProvider userAgent,
                 @Nullable @Named("ssm") AWSServiceConfiguration service) {
        super(aws.credentials(), aws.region(), userAgent, service);
    }

    @Override
    protected SsmClientBuilder createSyncBuilder() {
        return SsmClient.builder();
    }

    @Override
    protected SsmAsyncClientBuilder createAsyncBuilder() {
        return SsmAsyncClient.builder();
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    public SsmClientBuilder syncBuilder(SdkHttpClient httpClient) {
        return ClusterTasksAws.withTimeouts(super.syncBuilder(httpClient));
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    @Bean(preDestroy = "close")
    public SsmClient syncClient(@Named(ClusterTasksAws.QUALIFIER) SsmClientBuilder builder) {
        return super.syncClient(builder);
    }
}
