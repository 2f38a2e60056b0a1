package dev.proxy.tls;

import dev.proxy.config.dynamic.ClientAuth;
import dev.proxy.config.dynamic.ClientAuthType;
import dev.proxy.config.dynamic.TlsOptions;
import dev.proxy.config.dynamic.TlsVersion;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code tls.options.<name>} checked against what this JVM supports and turned into what an {@link SslContext} needs.
 * Anything that cannot be honoured exactly (an unknown cipher suite, unreadable CA files) is an error: routers using
 * these options are disabled, never served with weaker settings.
 */
public final class CompiledTlsOptions {

    /**
     * The ALPN protocols this proxy speaks on a TLS connection, offered in the order the configuration lists them
     * (a client asking for both gets {@code h2} with the default list). {@code acme-tls/1} is not in it: it is answered only with a
     * challenge certificate (see {@link dev.proxy.tls.acme.AcmeChallenges}).
     */
    static final Set<String> SERVED_ALPN = Set.of("h2", "http/1.1");

    /** Go fixes the TLS 1.3 suites (they are all strong); the JDK would drop them if a 1.2-only list were set. */
    private static final List<String> TLS13_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    /** {@code SSLParameters.setNamedGroups}, from Java 20 on; null before. */
    private static final MethodHandle SET_NAMED_GROUPS = namedGroupsSetter();

    private final String name;
    private final TlsOptions config;
    private final List<String> protocols;
    private final List<String> ciphers;
    private final String[] namedGroups;
    private final io.netty.handler.ssl.ClientAuth clientAuth;
    private final TrustManagerFactory clientTrust;
    private final List<X509Certificate> clientCas;
    private final List<String> alpn;

    private CompiledTlsOptions(String name, TlsOptions config, List<String> protocols, List<String> ciphers,
                               String[] namedGroups, io.netty.handler.ssl.ClientAuth clientAuth,
                               TrustManagerFactory clientTrust, List<X509Certificate> clientCas, List<String> alpn) {
        this.name = name;
        this.config = config;
        this.protocols = protocols;
        this.ciphers = ciphers;
        this.namedGroups = namedGroups;
        this.clientAuth = clientAuth;
        this.clientTrust = clientTrust;
        this.clientCas = clientCas;
        this.alpn = alpn;
    }

    /** @throws IllegalArgumentException saying what cannot be honoured */
    public static CompiledTlsOptions compile(String name, TlsOptions config) {
        List<String> protocols = new ArrayList<>();
        for (TlsVersion v : TlsVersion.values()) {
            boolean aboveMin = v == config.minVersion() || v.after(config.minVersion());
            boolean belowMax = config.maxVersion() == null || v == config.maxVersion() || config.maxVersion().after(v);
            if (aboveMin && belowMax) {
                protocols.add(v.jdkName());
            }
        }
        String[] namedGroups = config.curvePreferences().stream()
                .map(c -> TlsOptions.CURVES.get(c.toLowerCase(Locale.ROOT))).toArray(String[]::new);
        ClientAuth auth = config.clientAuth();
        List<X509Certificate> cas = new ArrayList<>();
        for (String file : auth.clientAuthType().verified() ? auth.caFiles() : List.<String>of()) {
            cas.addAll(Pem.certificates(file));
        }
        return new CompiledTlsOptions(name, config, List.copyOf(protocols), ciphers(config, protocols), namedGroups,
                nettyClientAuth(auth.clientAuthType()), clientTrust(auth.clientAuthType(), cas), List.copyOf(cas),
                alpn(config.alpnProtocols()));
    }

    /**
     * Whether these options would build the same contexts as {@code other} (same settings, same CA certificates read
     * from the files), so that contexts — and the TLS sessions clients resume with them — survive a reload.
     */
    boolean sameAs(CompiledTlsOptions other) {
        return name.equals(other.name) && config.equals(other.config) && clientCas.equals(other.clientCas);
    }

    private static List<String> ciphers(TlsOptions config, List<String> protocols) {
        if (config.cipherSuites().isEmpty()) {
            return null; // the JDK's defaults
        }
        Set<String> supported;
        try {
            supported = Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no default SSL context", e);
        }
        Set<String> out = new LinkedHashSet<>();
        for (String suite : config.cipherSuites()) {
            if (!supported.contains(suite)) {
                throw new IllegalArgumentException("cipher suite " + suite + " is not supported by this JVM");
            }
            out.add(suite);
        }
        if (protocols.contains(TlsVersion.VersionTLS13.jdkName())) {
            out.addAll(TLS13_SUITES);
        }
        return List.copyOf(out);
    }

    private static io.netty.handler.ssl.ClientAuth nettyClientAuth(ClientAuthType type) {
        if (type == ClientAuthType.NoClientCert) {
            return io.netty.handler.ssl.ClientAuth.NONE;
        }
        return type.required() ? io.netty.handler.ssl.ClientAuth.REQUIRE : io.netty.handler.ssl.ClientAuth.OPTIONAL;
    }

    /** The trust for client certificates: the CA certificates, or (types that do not verify) anything. */
    private static TrustManagerFactory clientTrust(ClientAuthType type, List<X509Certificate> cas) {
        if (type == ClientAuthType.NoClientCert) {
            return null;
        }
        if (!type.verified()) {
            // RequestClientCert and RequireAnyClientCert ask for a certificate without checking it, as Go does;
            // the application may look at it. Nothing is trusted because of it.
            return InsecureTrustManagerFactory.INSTANCE;
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException("clientAuth.caFiles: " + e.getMessage());
        }
    }

    private static List<String> alpn(List<String> configured) {
        return configured.stream().filter(SERVED_ALPN::contains).distinct().toList();
    }

    /** A server context with these options and this certificate. */
    SslContext newContext(ServerCertificate certificate) throws SSLException {
        SslContextBuilder builder = SslContextBuilder.forServer(certificate.key(), certificate.chain())
                .sslProvider(SslProvider.JDK)
                .protocols(protocols)
                .ciphers(ciphers)
                .clientAuth(clientAuth);
        if (clientTrust != null) {
            builder.trustManager(clientTrust);
        }
        if (!alpn.isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
        }
        return builder.build();
    }

    /** Applies what the context cannot carry on this JVM to a new engine (curve preferences). */
    void configure(SSLEngine engine) {
        if (namedGroups.length == 0 || SET_NAMED_GROUPS == null) {
            return;
        }
        SSLParameters parameters = engine.getSSLParameters();
        try {
            SET_NAMED_GROUPS.invoke(parameters, namedGroups);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot set the named groups", e);
        }
        engine.setSSLParameters(parameters);
    }

    /** Whether curve preferences are set but this JVM cannot apply them per connection (Java before 20). */
    public boolean curvePreferencesIgnored() {
        return namedGroups.length > 0 && SET_NAMED_GROUPS == null;
    }

    public String name() {
        return name;
    }

    public TlsOptions config() {
        return config;
    }

    public boolean sniStrict() {
        return config.sniStrict();
    }

    private static MethodHandle namedGroupsSetter() {
        try {
            return MethodHandles.publicLookup().findVirtual(SSLParameters.class, "setNamedGroups",
                    MethodType.methodType(void.class, String[].class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "TLS options " + name + " " + protocols + " " + Arrays.toString(namedGroups);
    }
}
