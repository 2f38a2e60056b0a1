package dev.proxy.tls;

import dev.proxy.config.dynamic.StoreCertificate;
import dev.proxy.config.dynamic.TlsCertificate;
import dev.proxy.config.dynamic.TlsConfig;
import dev.proxy.config.dynamic.TlsOptions;
import dev.proxy.config.dynamic.TlsStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Compiles the merged {@code tls} section: TLS options (checked against the JVM) and certificates (read from their
 * files now, so that a changed file is picked up with the next configuration). Problems are collected, not thrown:
 * a broken certificate is left out, broken options disable the routers that name them.
 */
public final class TlsCompiler {

    private final Supplier<ServerCertificate> generatedDefault;
    private Map<String, CompiledTlsOptions> previous = Map.of();

    /**
     * @param generatedDefault served when no certificate matches and the store names no default; asked for only when
     *                         a handshake needs it
     */
    public TlsCompiler(Supplier<ServerCertificate> generatedDefault) {
        this.generatedDefault = generatedDefault;
    }

    /** The compiled options and the reasons some could not be compiled. */
    public record Options(Map<String, CompiledTlsOptions> valid, Map<String, String> errors) {
    }

    /** The certificate store and the certificates that could not be loaded. */
    public record Certificates(CertificateStore store, List<String> errors) {
    }

    /**
     * Compiles every named option; {@code default} always exists (the built-in one unless configured). Options that
     * compile to the same as last time are the same object, which lets {@link TlsSnapshot} keep their contexts.
     */
    public Options options(TlsConfig tls) {
        Map<String, CompiledTlsOptions> valid = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, TlsOptions> all = new LinkedHashMap<>(tls.options());
        all.putIfAbsent(TlsOptions.DEFAULT_NAME, TlsOptions.DEFAULT);
        all.forEach((name, config) -> {
            try {
                CompiledTlsOptions compiled = CompiledTlsOptions.compile(name, config);
                CompiledTlsOptions before = previous.get(name);
                valid.put(name, before != null && before.sameAs(compiled) ? before : compiled);
            } catch (IllegalArgumentException e) {
                errors.put(name, e.getMessage());
            }
        });
        if (!valid.containsKey(TlsOptions.DEFAULT_NAME)) {
            // Broken default options: routers without explicit options are disabled (they are in errors); the
            // built-in default still answers handshakes for names no router claims, so the server keeps a sane TLS.
            valid.put(TlsOptions.DEFAULT_NAME, CompiledTlsOptions.compile(TlsOptions.DEFAULT_NAME, TlsOptions.DEFAULT));
        }
        previous = Map.copyOf(valid);
        return new Options(valid, errors);
    }

    /**
     * Loads the configured certificates and puts them before the resolvers' (a file certificate wins for a name
     * both cover, as the user's explicit choice).
     */
    public Certificates certificates(TlsConfig tls, List<ServerCertificate> fromResolvers) {
        List<String> errors = new ArrayList<>();
        List<ServerCertificate> loaded = new ArrayList<>();
        for (TlsCertificate c : tls.certificates()) {
            try {
                loaded.add(ServerCertificate.load(c.certFile(), c.keyFile()));
            } catch (IllegalArgumentException e) {
                errors.add("certificate " + e.getMessage());
            }
        }
        loaded.addAll(fromResolvers);
        Supplier<ServerCertificate> defaultCertificate = generatedDefault;
        TlsStore store = tls.stores().get(TlsCertificate.DEFAULT_STORE);
        StoreCertificate configured = store == null ? null : store.defaultCertificate();
        if (configured != null) {
            try {
                ServerCertificate fromFiles = ServerCertificate.load(configured.certFile(), configured.keyFile());
                defaultCertificate = () -> fromFiles;
            } catch (IllegalArgumentException e) {
                errors.add("default certificate " + e.getMessage() + "; serving the generated one");
            }
        }
        return new Certificates(new CertificateStore(loaded, defaultCertificate), errors);
    }
}
