package dev.proxy.provider.registrycatalog;

import dev.proxy.config.install.EntryPointConfig;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.SelfRegistrationConfig;
import dev.proxy.provider.Backoff;
import io.micronaut.core.annotation.Nullable;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.provider.ConfigurationSink;
import dev.proxy.provider.Explainable;
import dev.proxy.provider.ExplainedItem;
import dev.proxy.provider.Provider;
import dev.proxy.server.forward.BackendTls;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code providers.registryCatalog}: Consul services discovered through their tags. Without {@code namespaces} one
 * {@link CatalogSource} named {@code registrycatalog}; with namespaces (Consul Enterprise) one per namespace, named
 * {@code registrycatalog-<namespace>}, each sending {@code ns=<namespace>} on every call. With
 * {@code selfRegistration}, the proxy also registers itself in Consul while it runs ({@link SelfRegistration}).
 */
@Singleton
@Requires(condition = RegistryCatalogEnabled.class)
public class RegistryCatalogProvider implements Provider, Explainable {

    public static final String NAME = "registrycatalog";
    private static final Logger LOG = LoggerFactory.getLogger(RegistryCatalogProvider.class);

    private final RegistryCatalogConfig config;
    private final BackendTls backendTls;
    private final UnaryOperator<String> env;
    private final String pingUrl;
    private final List<CatalogSource> sources = new ArrayList<>();
    private @Nullable SelfRegistration selfRegistration;
    private boolean stopped;

    @Inject
    public RegistryCatalogProvider(InstallConfig install, BackendTls backendTls) {
        this(Objects.requireNonNull(install.providers().registryCatalog(), "providers.registryCatalog"), backendTls,
                System::getenv, pingUrl(install));
    }

    RegistryCatalogProvider(RegistryCatalogConfig config, BackendTls backendTls, UnaryOperator<String> env,
                            String pingUrl) {
        this.config = config;
        this.backendTls = backendTls;
        this.env = env;
        this.pingUrl = pingUrl;
    }

    /** The URL of this proxy's {@code /ping} as Consul's check reaches it, or empty when ping is off. */
    private static String pingUrl(InstallConfig install) {
        SelfRegistrationConfig self = install.providers().registryCatalog().selfRegistration();
        if (install.ping() == null || self == null) {
            return "";
        }
        EntryPointConfig ep = install.entryPoints().get(install.ping().entryPoint());
        if (ep == null) {
            return "";
        }
        String host = self.address().isEmpty() ? "127.0.0.1" : self.address();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + ep.listenAddress().port() + "/ping";
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws IllegalArgumentException for an invalid defaultRule, constraints, address or TLS file */
    @Override
    public synchronized void start(ConfigurationSink sink) {
        if (stopped || !sources.isEmpty()) {
            return;
        }
        List<String> namespaces = config.namespaces().isEmpty() ? List.of("") : config.namespaces();
        for (String ns : namespaces) {
            ConsulHttpClient client = new ConsulHttpClient(config, ns, env);
            String name = ns.isEmpty() ? NAME : NAME + "-" + ns;
            LOG.info("provider {}: Consul agent {}{}", name, client.address(), ns.isEmpty() ? "" : ", namespace " + ns);
            sources.add(new CatalogSource(name, config, client, backendTls));
        }
        sources.forEach(s -> s.start(sink));
        SelfRegistrationConfig self = config.selfRegistration();
        if (self != null) {
            selfRegistration = new SelfRegistration(self, config.serviceName(), pingUrl, hostName(),
                    new ConsulHttpClient(config, namespaces.get(0), env), Backoff.DEFAULT);
            selfRegistration.start();
        }
    }

    private String hostName() {
        String h = env.apply("HOSTNAME");
        if (h != null && !h.isBlank()) {
            return h.trim();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "local";
        }
    }

    @Override
    public synchronized void stop() {
        stopped = true;
        if (selfRegistration != null) {
            selfRegistration.stop();
        }
        sources.forEach(CatalogSource::stop);
    }

    /** Why each catalog service or instance is (not) routed, for every namespace. */
    public synchronized List<Explanation> explain() {
        List<Explanation> all = new ArrayList<>();
        sources.forEach(s -> all.addAll(s.explain()));
        return all;
    }

    /** The same, for the API's {@code /api/providers/registrycatalog/explain}. */
    @Override
    public List<ExplainedItem> explainItems() {
        return explain().stream().map(Explanation::item).toList();
    }
}
