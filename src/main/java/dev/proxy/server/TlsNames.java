package dev.proxy.server;

import dev.proxy.config.dynamic.Domain;
import dev.proxy.config.dynamic.RouterTls;
import dev.proxy.config.dynamic.TlsOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What the TLS routers say about host names, gathered while routes are compiled: which TLS options a host gets on
 * each entry point (from the routers whose {@code Host} rule names it) and which names each certificate resolver
 * must hold a certificate for.
 */
final class TlsNames {

    private final Map<String, Map<String, Set<String>>> options = new TreeMap<>();
    private final Map<String, Set<List<String>>> wanted = new TreeMap<>();
    private final List<String> warnings = new ArrayList<>();

    /**
     * Records one TLS router on one entry point.
     *
     * @throws IllegalArgumentException when the router names a certificate resolver that does not exist
     */
    void add(String router, String ep, RouterTls tls, String optionsName, List<String> hosts,
             Predicate<String> resolverExists) {
        for (String host : hosts) {
            if (!host.contains("*")) {
                options.computeIfAbsent(ep, e -> new TreeMap<>()).computeIfAbsent(host, h -> new TreeSet<>())
                        .add(optionsName);
            }
        }
        String resolver = tls.certResolver();
        if (resolver == null) {
            return;
        }
        if (!resolverExists.test(resolver)) {
            throw new IllegalArgumentException("certificate resolver \"" + resolver + "\" does not exist");
        }
        List<List<String>> sets = new ArrayList<>();
        if (tls.domains().isEmpty()) {
            sets.add(hosts);
        } else {
            tls.domains().stream().map(Domain::names).forEach(sets::add);
        }
        for (List<String> names : sets) {
            List<String> usable = names.stream().filter(n -> !n.contains("*")).distinct().toList();
            if (usable.size() < names.size()) {
                warnings.add("router " + router + ": wildcard names need the DNS-01 challenge, which resolver "
                        + resolver + " cannot answer; left out of its certificate: " + names);
            }
            if (usable.isEmpty()) {
                warnings.add("router " + router + ": no names for certificate resolver " + resolver
                        + " (give the rule a Host or set tls.domains)");
            } else {
                wanted.computeIfAbsent(resolver, r -> new LinkedHashSet<>()).add(usable);
            }
        }
    }

    void addAll(TlsNames other) {
        other.options.forEach((ep, hosts) -> hosts.forEach((host, names) ->
                options.computeIfAbsent(ep, e -> new TreeMap<>()).computeIfAbsent(host, h -> new TreeSet<>())
                        .addAll(names)));
        other.wanted.forEach((resolver, sets) -> wanted.computeIfAbsent(resolver, r -> new LinkedHashSet<>()).addAll(sets));
        warnings.addAll(other.warnings);
    }

    /**
     * Per entry point, host → options name. A host that routers on one entry point give different options gets
     * {@code default}, with a warning, as in Traefik: a handshake can only be answered with one set.
     */
    Map<String, Map<String, String>> optionsByHost() {
        Map<String, Map<String, String>> out = new TreeMap<>();
        options.forEach((ep, hosts) -> {
            Map<String, String> chosen = new TreeMap<>();
            hosts.forEach((host, names) -> {
                if (names.size() > 1) {
                    warnings.add("entry point " + ep + ": routers give host " + host + " different TLS options "
                            + names + "; using " + TlsOptions.DEFAULT_NAME);
                    chosen.put(host, TlsOptions.DEFAULT_NAME);
                } else {
                    chosen.put(host, names.iterator().next());
                }
            });
            out.put(ep, chosen);
        });
        return out;
    }

    Map<String, Set<List<String>>> wanted() {
        return wanted;
    }

    List<String> warnings() {
        return warnings;
    }
}
