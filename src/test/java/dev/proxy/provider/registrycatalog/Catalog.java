package dev.proxy.provider.registrycatalog;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.install.RegistryCatalogConfig;
import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Test builders: catalog items, provider options and expected configurations in a few characters each. */
final class Catalog {

    private Catalog() {
    }

    /** Instance {@code <name>-<n>} of {@code name} at 127.0.0.{n+1}:8080 on node n1, passing, with these tags. */
    static CatalogItem item(String name, int n, String... tags) {
        return new CatalogItem(name, name + "-" + n, "n1", "127.0.0." + (n + 1), 8080, Arrays.asList(tags), Map.of(),
                "default", "dc1", "passing", false);
    }

    static CatalogItem status(CatalogItem i, String status) {
        return new CatalogItem(i.name(), i.id(), i.node(), i.address(), i.port(), i.tags(), i.meta(), i.namespace(),
                i.datacenter(), status, i.connect());
    }

    static CatalogItem connect(CatalogItem i) {
        return new CatalogItem(i.name(), i.id(), i.node(), i.address(), i.port(), i.tags(), i.meta(), i.namespace(),
                i.datacenter(), i.status(), true);
    }

    static CatalogItem at(CatalogItem i, String address, int port) {
        return new CatalogItem(i.name(), i.id(), i.node(), address, port, i.tags(), i.meta(), i.namespace(),
                i.datacenter(), i.status(), i.connect());
    }

    /** Provider options from flags without the {@code providers.registryCatalog.} part: {@code --watch=true}. */
    static RegistryCatalogConfig options(String... flags) {
        return RecordDecoder.decode(RegistryCatalogConfig.class, CommandLineEntries.fromFlags(List.of(flags)));
    }

    /** A dynamic configuration from YAML (the file provider's syntax); empty text is the empty configuration. */
    static DynamicConfig yaml(String text) {
        if (text.isBlank()) {
            return DynamicConfig.EMPTY;
        }
        return RecordDecoder.decode(DynamicConfig.class, YamlEntries.read(new StringReader(text), "expected"));
    }
}
