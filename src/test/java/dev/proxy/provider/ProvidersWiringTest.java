package dev.proxy.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.proxy.config.dynamic.MergedConfig;
import dev.proxy.config.install.FileProviderConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.ProvidersConfig;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.provider.registrycatalog.RegistryCatalogProvider;
import dev.proxy.server.forward.BackendTls;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The beans as the application wires them: enabled providers, the watcher, and a data-plane listener. */
class ProvidersWiringTest {

    private static final String SPEC = "ProvidersWiringTest";

    @TempDir
    Path dir;

    /** Stands in for the data plane's listener bean; exists only in this test's contexts. */
    @Singleton
    @Requires(property = "spec.name", value = SPEC)
    public static class RecordingListener implements MergedConfigListener {
        final List<MergedConfig> received = new CopyOnWriteArrayList<>();

        @Override
        public void onMergedConfig(MergedConfig merged) {
            received.add(merged);
        }
    }

    private static ApplicationContext context(ProvidersConfig providers) {
        InstallConfig config = new InstallConfig(Map.of(), null, null, providers, null);
        return ApplicationContext.builder().deduceEnvironment(false).banner(false)
                .properties(Map.of("spec.name", SPEC)).singletons(config).start();
    }

    @Test
    void theFileProviderExistsOnlyWithItsSection() {
        try (ApplicationContext ctx = context(ProvidersConfig.NONE)) {
            assertThat(ctx.getBean(Providers.class).names()).isEmpty();
        }
    }

    @Test
    void theRegistryCatalogProviderExistsWithItsSectionAndSharesTheBackendTls() {
        RegistryCatalogConfig catalog = new RegistryCatalogConfig(null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null);
        try (ApplicationContext ctx = context(new ProvidersConfig(null, null, catalog, null))) {
            assertThat(ctx.getBean(Providers.class).names()).containsExactly("registrycatalog");
            assertThat(ctx.getBean(RegistryCatalogProvider.class)).isNotNull();
            assertThat(ctx.getBean(BackendTls.class)).isSameAs(ctx.getBean(BackendTls.class));
        }
    }

    @Test
    void startedProvidersReachTheListenerThroughTheWatcher() throws IOException {
        Path file = Files.writeString(dir.resolve("dynamic.yml"), """
                http:
                  routers:
                    ping: {rule: "Path(`/healthz`)", service: ping@internal}
                """);
        ProvidersConfig providers = new ProvidersConfig(null, new FileProviderConfig(file.toString(), null, true),
                null, null);
        try (ApplicationContext ctx = context(providers)) {
            Providers all = ctx.getBean(Providers.class);
            assertThat(all.names()).containsExactly("file");
            all.start();
            RecordingListener listener = ctx.getBean(RecordingListener.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> !listener.received.isEmpty());
            MergedConfig merged = listener.received.get(0);
            assertThat(merged.routers()).containsOnlyKeys("ping@file");
            assertThat(merged.routers().get("ping@file").service()).isEqualTo("ping@internal");
            assertThat(ctx.getBean(ConfigurationWatcher.class).current()).isEqualTo(merged);
        }
    }
}
