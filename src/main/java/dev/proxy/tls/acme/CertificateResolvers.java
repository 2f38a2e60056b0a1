package dev.proxy.tls.acme;

import dev.proxy.config.install.AcmeConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.provider.Backoff;
import dev.proxy.tls.ServerCertificate;
import io.netty.util.concurrent.DefaultThreadFactory;
import jakarta.annotation.PreDestroy;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Every certificate resolver of the install configuration ({@code certificatesResolvers}), and the challenge answers
 * they share with the data plane. The routing tells it which names each resolver must hold certificates for; it
 * tells the routing when the certificates change. Stored certificates are read when it is built, so that they are
 * served from the first configuration on.
 */
@Singleton
public class CertificateResolvers implements AutoCloseable {

    /** Delays between failed orders: 1 min, ×3, at most 6 h (CAs limit failed validations per hour). */
    public static final Backoff DEFAULT_RETRIES = new Backoff(Duration.ofMinutes(1), 3, 0.2, Duration.ofHours(6));

    private final AcmeChallenges challenges = new AcmeChallenges();
    private final Map<String, AcmeResolver> resolvers = new LinkedHashMap<>();
    private final Map<String, String> httpChallengeEntryPoints = new LinkedHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService executor;

    @Inject
    public CertificateResolvers(InstallConfig install) {
        this(install, DEFAULT_RETRIES);
    }

    /** @param retries delays between failed attempts (tests shorten them) */
    public CertificateResolvers(InstallConfig install, Backoff retries) {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, new DefaultThreadFactory("proxy-acme", true));
        pool.setRemoveOnCancelPolicy(true);
        this.executor = install.certificatesResolvers().isEmpty() ? null : Executors.unconfigurableScheduledExecutorService(pool);
        if (executor == null) {
            pool.shutdown();
        }
        if (executor != null && Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
            // acme4j signs its requests and builds CSRs through the "BC" provider. Added last, so the JDK's own
            // providers stay the first choice for everything else (TLS included).
            Security.addProvider(new BouncyCastleProvider());
        }
        Map<Path, AcmeStorage> storages = new HashMap<>();
        install.certificatesResolvers().forEach((name, resolver) -> {
            AcmeConfig acme = resolver.acme();
            // Resolvers sharing a file share one storage object, so their writes never overwrite each other.
            AcmeStorage storage = storages.computeIfAbsent(Path.of(acme.storage()).toAbsolutePath().normalize(),
                    AcmeStorage::new);
            AcmeResolver r = new AcmeResolver(name, acme, storage, challenges, executor, this::changed, retries);
            r.load();
            resolvers.put(name, r);
            if (acme.httpChallenge() != null) {
                httpChallengeEntryPoints.put(name, acme.httpChallenge().entryPoint());
            }
        });
    }

    public AcmeChallenges challenges() {
        return challenges;
    }

    public boolean exists(String resolver) {
        return resolvers.containsKey(resolver);
    }

    /** The entry points that answer HTTP-01 challenges (each resolver's {@code httpChallenge.entryPoint}). */
    public Set<String> httpChallengeEntryPoints() {
        return Set.copyOf(httpChallengeEntryPoints.values());
    }

    /** Every certificate the resolvers hold now. */
    public List<ServerCertificate> certificates() {
        List<ServerCertificate> all = new ArrayList<>();
        resolvers.values().forEach(r -> all.addAll(r.certificates()));
        return all;
    }

    /**
     * The names each resolver must hold certificates for, each list one certificate (main name first). Resolvers not
     * named want nothing any more. Returns at once; the work happens on the resolvers' thread.
     */
    public void want(Map<String, Set<List<String>>> byResolver) {
        resolvers.forEach((name, r) -> r.want(byResolver.getOrDefault(name, Set.of())));
    }

    /** Called (on the resolvers' thread) whenever the certificates held change. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }

    @PreDestroy
    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
