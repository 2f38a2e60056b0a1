package dev.proxy.provider.file;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.Middleware;
import dev.proxy.config.dynamic.Router;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.dynamic.TlsCertificate;
import dev.proxy.config.dynamic.TlsConfig;
import dev.proxy.config.dynamic.TlsOptions;
import dev.proxy.config.dynamic.TlsStore;
import dev.proxy.provider.ExplainedItem;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the file provider's configuration from its files (pure: no I/O, no logging). Each file is a complete YAML
 * document decoded on its own; the files are then combined in the order given (by name). A resource name that a
 * later file defines again is skipped with a warning naming both files: the first definition wins, as in Traefik.
 * Any broken file fails the whole build, so that a half-applied directory never replaces a good one.
 */
final class FileConfigBuilder {

    /** The combined configuration, the warnings to log about it, and what became of each file and resource. */
    record Built(DynamicConfig config, List<String> warnings, List<ExplainedItem> explained) {
        Built {
            warnings = List.copyOf(warnings);
            explained = List.copyOf(explained);
        }
    }

    private FileConfigBuilder() {
    }

    /** @throws ConfigException naming the file, line, key and value of the first problem found */
    static Built build(List<SourceFile> files) {
        List<String> warnings = new ArrayList<>();
        List<ExplainedItem> explained = new ArrayList<>();
        Combined<Router> routers = new Combined<>("router", warnings, explained);
        Combined<Service> services = new Combined<>("service", warnings, explained);
        Combined<Middleware> middlewares = new Combined<>("middleware", warnings, explained);
        Combined<TlsOptions> tlsOptions = new Combined<>("TLS options", warnings, explained);
        Combined<TlsStore> stores = new Combined<>("TLS store", warnings, explained);
        List<TlsCertificate> certificates = new ArrayList<>();
        for (SourceFile file : files) {
            String name = file.path().toString();
            DynamicConfig config = RecordDecoder.decode(DynamicConfig.class,
                    YamlEntries.read(new StringReader(file.content()), name));
            HttpConfig http = config.http();
            List<String> taken = routers.add(http.routers(), name);
            services.add(http.services(), name);
            middlewares.add(http.middlewares(), name);
            TlsConfig tls = config.tls();
            certificates.addAll(tls.certificates());
            tlsOptions.add(tls.options(), name);
            stores.add(tls.stores(), name);
            explained.add(new ExplainedItem("file " + name, true, "exposed: %d routers, %d services, %d middlewares"
                    .formatted(http.routers().size(), http.services().size(), http.middlewares().size()), taken));
        }
        return new Built(new DynamicConfig(new HttpConfig(routers.values, services.values, middlewares.values),
                new TlsConfig(certificates, tlsOptions.values, stores.values)), warnings, explained);
    }

    /** One kind of resource from every file, first definition winning. */
    private static final class Combined<V> {
        private final String kind;
        private final List<String> warnings;
        private final List<ExplainedItem> explained;
        private final Map<String, V> values = new LinkedHashMap<>();
        private final Map<String, String> definedIn = new LinkedHashMap<>();

        Combined(String kind, List<String> warnings, List<ExplainedItem> explained) {
            this.kind = kind;
            this.warnings = warnings;
            this.explained = explained;
        }

        /** Adds a file's resources; returns the names taken from it. */
        List<String> add(Map<String, V> resources, String file) {
            List<String> taken = new ArrayList<>();
            resources.forEach((name, value) -> {
                String first = definedIn.putIfAbsent(name, file);
                if (first == null) {
                    values.put(name, value);
                    taken.add(name);
                } else {
                    warnings.add(kind + " \"" + name + "\" is defined in " + first + " and again in " + file
                            + ": keeping the definition from " + first);
                    explained.add(ExplainedItem.skipped(kind + " " + name + " in file " + file,
                            "already defined in " + first + "; the first definition wins"));
                }
            });
            return taken;
        }
    }
}
