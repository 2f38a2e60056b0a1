package dev.proxy.tls.acme;

import dev.proxy.config.decode.Secret;
import dev.proxy.config.install.AcmeConfig;
import dev.proxy.config.install.AcmeKeyType;
import dev.proxy.provider.Backoff;
import dev.proxy.tls.Pem;
import dev.proxy.tls.ServerCertificate;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.shredzone.acme4j.Account;
import org.shredzone.acme4j.AccountBuilder;
import org.shredzone.acme4j.Authorization;
import org.shredzone.acme4j.Order;
import org.shredzone.acme4j.Problem;
import org.shredzone.acme4j.Session;
import org.shredzone.acme4j.Status;
import org.shredzone.acme4j.challenge.Challenge;
import org.shredzone.acme4j.challenge.Http01Challenge;
import org.shredzone.acme4j.challenge.TlsAlpn01Challenge;
import org.shredzone.acme4j.exception.AcmeException;
import org.shredzone.acme4j.util.KeyPairUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ACME certificate resolver ({@code certificatesResolvers.<name>.acme}): keeps a certificate for every set of
 * names its routers want, obtaining it through HTTP-01 or TLS-ALPN-01 and renewing it before it expires. Stored
 * certificates are served at once after a restart and are not obtained again while they are valid.
 *
 * <p>All the work — network calls to the CA, waiting for validations, writing the storage — runs on the resolvers'
 * own thread, never on an event loop. A failure is logged and retried with a growing delay
 * ({@link CertificateResolvers#DEFAULT_RETRIES}); meanwhile the previous certificate (or the default one) is served.
 */
final class AcmeResolver {

    private static final Logger LOG = LoggerFactory.getLogger(AcmeResolver.class);
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration MAX_RENEW_BEFORE = Duration.ofDays(30);

    private final String name;
    private final AcmeConfig config;
    private final AcmeStorage storage;
    private final AcmeChallenges challenges;
    private final ScheduledExecutorService executor;
    private final Runnable changed;
    private final Backoff retries;
    private final Clock clock = Clock.systemUTC();

    /** Certificates by the names they were obtained for (main name first); touched on the executor only. */
    private final Map<List<String>, ServerCertificate> certificates = new LinkedHashMap<>();
    private final Map<List<String>, ScheduledFuture<?>> scheduled = new HashMap<>();
    private final Map<List<String>, Integer> failures = new HashMap<>();
    private Set<List<String>> wanted = Set.of();
    private volatile List<ServerCertificate> published = List.of();
    private AcmeStorage.Account storedAccount;
    private Account account;

    AcmeResolver(String name, AcmeConfig config, AcmeStorage storage, AcmeChallenges challenges,
                 ScheduledExecutorService executor, Runnable changed, Backoff retries) {
        this.name = name;
        this.config = config;
        this.storage = storage;
        this.challenges = challenges;
        this.executor = executor;
        this.changed = changed;
        this.retries = retries;
    }

    /** Reads the stored account and certificates (called once, before anything else runs). */
    void load() {
        try {
            AcmeStorage.Section section = storage.read(name);
            storedAccount = section.account();
            for (AcmeStorage.StoredCertificate stored : section.certificates()) {
                try {
                    ServerCertificate c = decode(stored);
                    if (c.notAfter().isAfter(clock.instant())) {
                        certificates.put(namesOf(stored), c);
                    }
                } catch (IllegalArgumentException e) {
                    LOG.warn("resolver {}: a stored certificate in {} is unreadable, ignored: {}", name, storage.file(),
                            e.getMessage());
                }
            }
            publish();
            LOG.info("resolver {}: {} stored certificate(s) from {}", name, certificates.size(), storage.file());
        } catch (IOException | RuntimeException e) {
            // Not the message: a JSON parser's may quote the file, which holds private keys.
            LOG.error("resolver {}: cannot read {} ({}); certificates will be obtained again", name, storage.file(),
                    e.getClass().getSimpleName());
        }
    }

    /** The valid certificates held now (any thread). */
    List<ServerCertificate> certificates() {
        return published;
    }

    /** Sets the name sets routers want certificates for; missing or due ones are obtained (any thread). */
    void want(Set<List<String>> nameSets) {
        executor.execute(() -> {
            Set<List<String>> before = wanted;
            wanted = Set.copyOf(nameSets);
            for (List<String> names : before) {
                if (!wanted.contains(names)) {
                    ScheduledFuture<?> f = scheduled.remove(names);
                    if (f != null) {
                        f.cancel(false);
                    }
                    failures.remove(names);
                }
            }
            for (List<String> names : wanted) {
                if (!scheduled.containsKey(names)) {
                    check(names);
                }
            }
        });
    }

    /** Obtains a certificate for the names when none is held or the one held is due for renewal; plans the next. */
    private void check(List<String> names) {
        scheduled.remove(names);
        if (!wanted.contains(names)) {
            return;
        }
        ServerCertificate held = heldFor(names);
        Instant now = clock.instant();
        if (held != null && now.isBefore(renewalTime(held))) {
            schedule(names, Duration.between(now, renewalTime(held)));
            return;
        }
        try {
            ServerCertificate obtained = obtain(names);
            failures.remove(names);
            certificates.put(names, obtained);
            publish();
            persist();
            LOG.info("resolver {}: obtained a certificate for {}, valid until {}", name, names, obtained.notAfter());
            schedule(names, Duration.between(clock.instant(), renewalTime(obtained)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            int n = failures.merge(names, 1, Integer::sum);
            Duration delay = retries.delay(n - 1, ThreadLocalRandom.current().nextDouble());
            LOG.warn("resolver {}: cannot obtain a certificate for {} (attempt {}): {}; retrying in {}", name, names,
                    n, describe(e), delay);
            schedule(names, delay);
        }
    }

    private void schedule(List<String> names, Duration delay) {
        if (executor.isShutdown()) {
            return;
        }
        scheduled.put(names, executor.schedule(() -> check(names), Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS));
    }

    /**
     * When to renew: 30 days before expiry, as Let's Encrypt advises for its 90-day certificates, or a third of the
     * lifetime before it for shorter ones (6-day certificates, test CAs).
     */
    static Instant renewalTime(ServerCertificate c) {
        return renewalTime(c.notBefore(), c.notAfter());
    }

    static Instant renewalTime(Instant notBefore, Instant notAfter) {
        Duration third = Duration.between(notBefore, notAfter).dividedBy(3);
        return notAfter.minus(third.compareTo(MAX_RENEW_BEFORE) < 0 ? third : MAX_RENEW_BEFORE);
    }

    private ServerCertificate heldFor(List<String> names) {
        ServerCertificate exact = certificates.get(names);
        if (exact != null) {
            return exact;
        }
        for (ServerCertificate c : certificates.values()) {
            if (c.covers(names)) {
                return c;
            }
        }
        return null;
    }

    private ServerCertificate obtain(List<String> names) throws AcmeException, InterruptedException, IOException {
        LOG.info("resolver {}: ordering a certificate for {} from {}", name, names, config.caServer());
        Order order = account().newOrder().domains(names).create();
        for (Authorization auth : order.getAuthorizations()) {
            if (auth.getStatus() != Status.VALID) {
                authorize(auth);
            }
        }
        order.waitUntilReady(WAIT);
        KeyPair key = newKey(config.keyType());
        order.execute(key);
        Status status = order.waitForCompletion(WAIT);
        if (status != Status.VALID) {
            throw new AcmeException("order " + status.name().toLowerCase() + problem(order.getError().orElse(null)));
        }
        List<X509Certificate> chain = order.getCertificate().getCertificateChain();
        return ServerCertificate.of(key.getPrivate(), chain, "resolver " + name);
    }

    private void authorize(Authorization auth) throws AcmeException, InterruptedException, IOException {
        String domain = auth.getIdentifier().getDomain();
        Challenge challenge;
        Runnable cleanup;
        var http = config.httpChallenge() == null ? null : auth.findChallenge(Http01Challenge.class).orElse(null);
        var alpn = config.tlsChallenge() == null ? null : auth.findChallenge(TlsAlpn01Challenge.class).orElse(null);
        if (http != null) {
            challenges.addHttp(http.getToken(), http.getAuthorization());
            challenge = http;
            cleanup = () -> challenges.removeHttp(http.getToken());
        } else if (alpn != null) {
            KeyPair key = KeyPairUtils.createKeyPair(2048); // acme4j signs the challenge certificate with SHA256withRSA
            X509Certificate cert = alpn.createCertificate(key, auth.getIdentifier());
            challenges.addTlsAlpn(domain, ServerCertificate.of(key.getPrivate(), List.of(cert), "acme-tls/1 challenge"));
            challenge = alpn;
            cleanup = () -> challenges.removeTlsAlpn(domain);
        } else {
            throw new AcmeException("the CA offers no challenge this resolver answers for " + domain);
        }
        try {
            challenge.trigger();
            Status status = challenge.waitForCompletion(WAIT);
            if (status != Status.VALID) {
                throw new AcmeException(challenge.getType() + " for " + domain + " " + status.name().toLowerCase()
                        + problem(challenge.getError().orElse(null)));
            }
        } finally {
            cleanup.run();
        }
    }

    /** The ACME account: the stored one (same key, same CA), else a new registration. */
    private Account account() throws AcmeException, IOException {
        if (account != null) {
            return account;
        }
        var provider = CaTrust.provider(config);
        URI ca = URI.create(config.caServer());
        Session session = provider == null ? new Session(ca) : new Session(ca, provider);
        KeyPair key = null;
        if (storedAccount != null && config.caServer().equals(storedAccount.caServer())
                && storedAccount.keyPair() != null) {
            key = decodeAccountKey(storedAccount.keyPair());
        }
        if (key == null) {
            key = KeyPairUtils.createECKeyPair("secp256r1");
        }
        AccountBuilder builder = new AccountBuilder().agreeToTermsOfService().useKeyPair(key);
        if (!config.email().isEmpty()) {
            builder.addEmail(config.email());
        }
        // Registering an existing key returns the existing account, so this is also how a stored one is found.
        account = builder.create(session);
        storedAccount = new AcmeStorage.Account(config.email(), account.getLocation().toString(),
                encodeAccountKey(key), config.caServer());
        persist();
        return account;
    }

    private KeyPair decodeAccountKey(String pem) {
        try {
            return KeyPairUtils.readKeyPair(new StringReader(pem));
        } catch (IOException | RuntimeException e) {
            LOG.warn("resolver {}: the stored account key is unreadable; registering a new account", name);
            return null;
        }
    }

    private static String encodeAccountKey(KeyPair key) throws IOException {
        StringWriter out = new StringWriter();
        KeyPairUtils.writeKeyPair(key, out);
        return out.toString();
    }

    /** Writes the account and certificates; a failure is logged, not thrown: what was obtained is served anyway. */
    private void persist() {
        List<AcmeStorage.StoredCertificate> stored = new ArrayList<>();
        certificates.forEach((names, c) -> stored.add(new AcmeStorage.StoredCertificate(
                new AcmeStorage.StoredDomain(names.get(0), names.subList(1, names.size())),
                base64(Pem.encode(c.chain())), base64(Pem.encode(c.key())), "default")));
        try {
            storage.write(name, new AcmeStorage.Section(storedAccount, stored));
        } catch (IOException | RuntimeException e) {
            LOG.error("resolver {}: cannot write {}: {}; certificates are served but will be ordered again after a "
                    + "restart", name, storage.file(), e.toString());
        }
    }

    private void publish() {
        published = List.copyOf(certificates.values());
        changed.run();
    }

    private static ServerCertificate decode(AcmeStorage.StoredCertificate stored) {
        if (stored.certificate() == null || stored.key() == null) {
            throw new IllegalArgumentException("no certificate or key");
        }
        String chainPem = new String(Base64.getDecoder().decode(stored.certificate()), StandardCharsets.US_ASCII);
        String keyPem = new String(Base64.getDecoder().decode(stored.key()), StandardCharsets.US_ASCII);
        return ServerCertificate.of(Pem.privateKey(new Secret(keyPem)), Pem.certificates(chainPem), "stored");
    }

    private static List<String> namesOf(AcmeStorage.StoredCertificate stored) {
        List<String> names = new ArrayList<>();
        if (stored.domain() != null && stored.domain().main() != null) {
            names.add(stored.domain().main());
        }
        if (stored.domain() != null && stored.domain().sans() != null) {
            stored.domain().sans().stream().filter(s -> !names.contains(s)).forEach(names::add);
        }
        return List.copyOf(names);
    }

    private static KeyPair newKey(AcmeKeyType type) {
        return switch (type) {
            case EC256 -> KeyPairUtils.createECKeyPair("secp256r1");
            case EC384 -> KeyPairUtils.createECKeyPair("secp384r1");
            case RSA2048 -> KeyPairUtils.createKeyPair(2048);
            case RSA4096 -> KeyPairUtils.createKeyPair(4096);
            case RSA8192 -> KeyPairUtils.createKeyPair(8192);
        };
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String problem(Problem p) {
        return p == null ? "" : ": " + p;
    }

    private static String describe(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
