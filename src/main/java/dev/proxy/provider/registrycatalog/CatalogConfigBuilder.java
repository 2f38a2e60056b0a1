package dev.proxy.provider.registrycatalog;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.dynamic.DynamicConfig;
import dev.proxy.config.dynamic.HttpConfig;
import dev.proxy.config.dynamic.LoadBalancer;
import dev.proxy.config.dynamic.Server;
import dev.proxy.config.dynamic.Service;
import dev.proxy.config.label.BuildResult;
import dev.proxy.config.label.DefaultRule;
import dev.proxy.config.label.Item;
import dev.proxy.config.label.ItemConfig;
import dev.proxy.config.label.ItemDefaults;
import dev.proxy.config.label.ItemMerger;
import dev.proxy.config.label.LabelDecoder;
import dev.proxy.config.label.Problem;
import io.micronaut.core.annotation.Nullable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the provider's dynamic configuration from catalog items (pure: no I/O, no logging, no clock). Per instance,
 * in the order name, node, id (so the same catalog always gives the same configuration):
 * <ol>
 *   <li>filter, in Traefik's order: enabled ({@code exposedByDefault} or {@code <prefix>.enable}); connect only with
 *       {@code connectAware} and certificates; the {@code constraints} on its own tags; its aggregated check status
 *       in {@code strictChecks};</li>
 *   <li>decode its {@code <prefix>.http.…} tags, add the defaults (a service named {@code normalize(Name)}, or with
 *       the canary tag {@code normalize(Name-<hash of its tags>)}; one server at its address and port; a router with
 *       the default rule);</li>
 *   <li>connect instances: servers are {@code https} and the service is reached with the Connect leaf, verifying
 *       the SPIFFE ID of the Consul service.</li>
 * </ol>
 * Then every instance is merged ({@link ItemMerger}). An instance that fails any step is skipped with the reason, never
 * the whole catalog; each catalog instance gets one {@link Explanation}.
 */
public final class CatalogConfigBuilder {

    /**
     * The result.
     *
     * @param config             the provider's configuration
     * @param explanations       one per instance, in build order
     * @param problems           resources left out and instances skipped for an error (for the log)
     * @param connectIdentities  service name → the SPIFFE ID its servers must present, for Connect services
     */
    public record Built(DynamicConfig config, List<Explanation> explanations, List<String> problems,
                       Map<String, String> connectIdentities) {
        public Built {
            explanations = List.copyOf(explanations);
            problems = List.copyOf(problems);
            connectIdentities = Map.copyOf(connectIdentities);
        }
    }

    private static final Comparator<CatalogItem> ORDER = Comparator.comparing(CatalogItem::name)
            .thenComparing(CatalogItem::node).thenComparing(CatalogItem::id);

    private final String provider;
    private final CatalogSettings settings;
    private final ItemDefaults defaults;
    /**
     * Each instance's outcome from the previous build (a skip reason, an exception or an {@link Accepted}): an
     * instance read again unchanged is not decoded again, so a change in a large catalog rebuilds in a fraction of
     * the time of the first build. Only a memo of a pure function: the result is the same without it.
     */
    private Map<CatalogItem, Object> memo = new HashMap<>();
    private @Nullable String memoTrustDomain;

    CatalogConfigBuilder(String provider, CatalogSettings settings) {
        this.provider = provider;
        this.settings = settings;
        this.defaults = new ItemDefaults(settings.defaultRule());
    }

    /** One instance that passed the filters, with its configuration. */
    private record Accepted(CatalogItem item, DynamicConfig config, String identity, List<Problem> problems) {
    }

    /**
     * @param trustDomain the Connect CA's trust domain once the CA roots and the proxy's leaf certificate are known;
     *                    null before (connect instances are then skipped)
     */
    public synchronized Built build(List<CatalogItem> items, @Nullable String trustDomain) {
        List<CatalogItem> sorted = new ArrayList<>(items);
        sorted.sort(ORDER);
        Map<CatalogItem, Explanation> explained = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<Accepted> accepted = new ArrayList<>();
        Map<CatalogItem, Object> previous = java.util.Objects.equals(trustDomain, memoTrustDomain) ? memo : Map.of();
        Map<CatalogItem, Object> outcomes = new HashMap<>();
        for (CatalogItem item : sorted) {
            String instance = item.id() + " on node " + item.node();
            Object outcome = previous.get(item);
            if (outcome == null) {
                outcome = outcome(item, trustDomain);
            }
            outcomes.put(item, outcome);
            if (outcome instanceof Accepted a) {
                accepted.add(a);
            } else if (outcome instanceof RuntimeException e) {
                String reason = e.getMessage().startsWith("consul service") ? e.getMessage()
                        : item.description() + ": " + e.getMessage();
                problems.add(reason);
                explained.put(item, Explanation.skipped(provider, item.name(), instance, "invalid: " + reason));
            } else {
                explained.put(item, Explanation.skipped(provider, item.name(), instance, (String) outcome));
            }
        }
        memo = outcomes;
        memoTrustDomain = trustDomain;
        List<Problem> left = new ArrayList<>();
        Map<String, String> identities = connectIdentities(accepted, left);
        List<ItemConfig> configs = new ArrayList<>();
        for (Accepted a : accepted) {
            configs.add(new ItemConfig(a.item().description(), a.config()));
            left.addAll(a.problems());
        }
        BuildResult merged = ItemMerger.merge(configs);
        left.addAll(merged.problems());
        left.forEach(p -> problems.add(p.message()));
        DynamicConfig config = merged.config();
        identities.keySet().retainAll(config.http().services().keySet());

        for (Accepted a : accepted) {
            explained.put(a.item(), explain(a, config, left));
        }
        List<Explanation> explanations = new ArrayList<>();
        for (CatalogItem item : sorted) {
            explanations.add(explained.get(item));
        }
        return new Built(config, explanations, problems, identities);
    }

    /** A skip reason, the {@link ConfigException} or {@link IllegalArgumentException} of an invalid item, or it accepted. */
    private Object outcome(CatalogItem item, @Nullable String trustDomain) {
        try {
            String skipped = skipReason(item, trustDomain);
            return skipped != null ? skipped : configure(item, trustDomain);
        } catch (ConfigException | IllegalArgumentException e) {
            return e;
        }
    }

    private @Nullable String skipReason(CatalogItem item, @Nullable String trustDomain) {
        Map<String, String> labels = settings.labels(item.tags());
        String notEnabled = settings.notEnabled(labels);
        if (notEnabled != null) {
            return notEnabled;
        }
        if (item.connect() && !settings.connectAware()) {
            return "a Connect service (tag " + settings.prefix() + ".registrycatalog.connect or connectByDefault), "
                    + "but connectAware is false";
        }
        if (item.connect() && trustDomain == null) {
            return "a Connect service, and the Connect certificates (CA roots and the proxy's leaf) are not available yet";
        }
        String constraint = settings.constraintFails(item.tags());
        if (constraint != null) {
            return constraint;
        }
        if (!CheckStatus.allowed(item.status(), settings.strictChecks())) {
            return "its check status " + item.status() + " is not in strictChecks " + settings.strictChecks();
        }
        return null;
    }

    private Accepted configure(CatalogItem item, @Nullable String trustDomain) {
        Map<String, String> labels = settings.labels(item.tags());
        DynamicConfig decoded = LabelDecoder.decode(labels, settings.prefix(), item.description() + " tag");
        String name = settings.canary(labels)
                ? DefaultRule.normalize(item.name() + "-" + fnv64(item.tags()))
                : DefaultRule.normalize(item.name());
        Item described = new Item(item.description(), name, item.address(), item.port() == 0 ? null : item.port())
                .withRuleData(item.name(), labels);
        BuildResult built = defaults.apply(decoded, described);
        DynamicConfig config = built.config();
        String identity = "";
        if (item.connect()) {
            identity = "spiffe://" + trustDomain + "/ns/" + item.namespace() + "/dc/" + item.datacenter()
                    + "/svc/" + item.name();
            config = overHttps(config);
        }
        return new Accepted(item, config, identity, built.problems());
    }

    /** Connect servers speak TLS whatever the tags say (Traefik forces https the same way). */
    private static DynamicConfig overHttps(DynamicConfig config) {
        Map<String, Service> services = new LinkedHashMap<>();
        config.http().services().forEach((name, s) -> {
            LoadBalancer lb = s.loadBalancer();
            if (lb == null) {
                services.put(name, s);
                return;
            }
            List<Server> servers = lb.servers().stream()
                    .map(server -> new Server(server.url().replaceFirst("^[A-Za-z0-9]+://", "https://"),
                            server.weight(), null, null))
                    .toList();
            services.put(name, new Service(new LoadBalancer(servers, lb.passHostHeader(), lb.healthCheck(),
                    lb.sticky(), lb.weight(), lb.passiveHealthCheck()), null));
        });
        HttpConfig http = config.http();
        return new DynamicConfig(new HttpConfig(http.routers(), services, http.middlewares()));
    }

    /**
     * The SPIFFE ID each Connect service's servers must present. A service whose instances need different
     * identities (plain and Connect instances, or Connect instances of different Consul services) cannot be reached
     * with one TLS setting: it is removed from every instance, like a conflicting definition.
     */
    private static Map<String, String> connectIdentities(List<Accepted> accepted, List<Problem> problems) {
        Map<String, Set<String>> identities = new TreeMap<>();
        Map<String, Set<String>> origins = new HashMap<>();
        for (Accepted a : accepted) {
            for (String service : a.config().http().services().keySet()) {
                identities.computeIfAbsent(service, k -> new LinkedHashSet<>()).add(a.identity());
                origins.computeIfAbsent(service, k -> new LinkedHashSet<>()).add(a.item().description());
            }
        }
        Map<String, String> result = new LinkedHashMap<>();
        identities.forEach((service, ids) -> {
            if (ids.size() == 1) {
                String id = ids.iterator().next();
                if (!id.isEmpty()) {
                    result.put(service, id);
                }
                return;
            }
            problems.add(new Problem("service " + service, List.copyOf(origins.get(service)), "service " + service
                    + " defined multiple times with different configurations (origins "
                    + String.join(", ", origins.get(service)) + "): its servers need different Connect identities "
                    + ids.stream().map(i -> i.isEmpty() ? "(none)" : i).toList()));
            for (int i = 0; i < accepted.size(); i++) {
                Accepted a = accepted.get(i);
                if (a.config().http().services().containsKey(service)) {
                    Map<String, Service> rest = new LinkedHashMap<>(a.config().http().services());
                    rest.remove(service);
                    HttpConfig h = a.config().http();
                    accepted.set(i, new Accepted(a.item(), new DynamicConfig(new HttpConfig(h.routers(), rest,
                            h.middlewares())), a.identity(), a.problems()));
                }
            }
        });
        return result;
    }

    private Explanation explain(Accepted a, DynamicConfig merged, List<Problem> problems) {
        String instance = a.item().id() + " on node " + a.item().node();
        List<String> routers = new ArrayList<>();
        for (String router : a.config().http().routers().keySet()) {
            if (merged.http().routers().containsKey(router)) {
                routers.add(router);
            }
        }
        List<String> mine = new ArrayList<>();
        for (Problem p : problems) {
            if (p.origins().contains(a.item().description())) {
                mine.add(p.message());
            }
        }
        if (!routers.isEmpty()) {
            String note = mine.isEmpty() ? "" : " (but: " + String.join("; ", mine) + ")";
            return new Explanation(provider, a.item().name(), instance, true, "exposed" + note, routers);
        }
        if (!mine.isEmpty()) {
            return Explanation.skipped(provider, a.item().name(), instance,
                    "conflicting or incomplete definitions: " + String.join("; ", mine));
        }
        return Explanation.skipped(provider, a.item().name(), instance,
                "no router: it defines several services and no router tag");
    }

    /** FNV-1a 64 of the sorted, concatenated tags: the canary name suffix (Traefik's). */
    static String fnv64(List<String> tags) {
        List<String> sorted = new ArrayList<>(tags);
        sorted.sort(null);
        long hash = 0xcbf29ce484222325L;
        for (byte b : String.join("", sorted).getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return Long.toHexString(hash);
    }
}
