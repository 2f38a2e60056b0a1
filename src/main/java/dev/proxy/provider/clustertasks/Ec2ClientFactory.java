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
import software.amazon.awssdk.services.ec2.Ec2AsyncClient;
import software.amazon.awssdk.services.ec2.Ec2AsyncClientBuilder;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.Ec2ClientBuilder;

/**
 * The EC2 client in Micronaut AWS's style (it has no such factory), with the {@code clusterTasks} provider's
 * credentials and region ({@link ClusterTasksAws}), on the blocking HTTP client. Only the synchronous client is a
 * bean: no async HTTP client is on the classpath.
 */
@Factory
@Requires(condition = ClusterTasksEnabled.class)
public class Ec2ClientFactory extends AwsClientFactory<Ec2ClientBuilder, Ec2AsyncClientBuilder, Ec2Client, Ec2AsyncClient> {

    protected Ec2ClientFactory(ClusterTasksAws aws, @Nullable UserAgentProvider userAgent,
                 @Nullable @Named("ec2") AWSServiceConfiguration service) {
        super(aws.credentials(), aws.region(), userAgent, service);
    }

    @Override
    protected Ec2ClientBuilder createSyncBuilder() {
        return Ec2Client.builder();
    }

    @Override
    protected Ec2AsyncClientBuilder createAsyncBuilder() {
        return Ec2AsyncClient.builder();
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    public Ec2ClientBuilder syncBuilder(SdkHttpClient httpClient) {
        return ClusterTasksAws.withTimeouts(super.syncBuilder(httpClient));
    }

    @Override
    @Singleton
    @Named(ClusterTasksAws.QUALIFIER)
    @Bean(preDestroy = "close")
    public Ec2Client syncClient(@Named(ClusterTasksAws.QUALIFIER) Ec2ClientBuilder builder) {
        return super.syncClient(builder);
    }
}
