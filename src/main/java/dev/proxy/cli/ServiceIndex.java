package dev.proxy.cli;

import io.micronaut.core.io.service.SoftServiceLoader;
import io.micronaut.core.optim.StaticOptimizations;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Micronaut's service lists (bean definitions, introspections, converters) from an index made when the jar is built,
 * instead of from a scan of the jar at every start.
 *
 * <p>Micronaut lists {@code META-INF/micronaut/<service>/<class>} entries by opening the jar as a zip file system,
 * which reads the whole central directory of the fat jar (~46,000 entries, most of them the AWS SDK's) in
 * interpreted code: ~0.2 CPU-seconds of every start. {@code mvn package} writes those entries' names to
 * {@value #RESOURCE} inside the jar; when that resource exists, this class hands Micronaut the same lists through its
 * static-optimisation hook (the one Micronaut AOT and native images use). A service's providers are, as in Micronaut's
 * own scan, the classes named in {@code META-INF/services/<service>} files (read through the class loader, which
 * needs no listing), then the indexed classes; classes that cannot be loaded or instantiated are skipped. Without the
 * resource (tests run from {@code target/classes}), Micronaut scans as usual.
 */
final class ServiceIndex {

    /** The index in the jar: one {@code <service>/<class name>} line per {@code META-INF/micronaut} entry. */
    static final String RESOURCE = "META-INF/proxy/micronaut-services";

    /** Micronaut's service of bean definitions. */
    static final String BEAN_DEFINITIONS = "io.micronaut.inject.BeanDefinitionReference";

    private static final MethodType NO_ARGUMENTS = MethodType.methodType(void.class);

    private ServiceIndex() {
    }

    /**
     * Installs the index when the class path has one. Must run before Micronaut first loads a service (its service
     * loader reads the hook once, when its class is initialised).
     *
     * @param skipped packages (prefixes ending in a dot) whose bean definitions are left out
     * @return whether an index was installed
     */
    static boolean install(ClassLoader loader, List<String> skipped) {
        Map<String, List<String>> indexed;
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return false;
            }
            indexed = parse(in, skipped);
        } catch (IOException e) {
            return false;   // no index: Micronaut scans the jar, which is only slower
        }
        try {
            StaticOptimizations.set(new SoftServiceLoader.Optimizations(loaders(loader, indexed)));
            return true;
        } catch (IllegalStateException e) {
            return false;   // Micronaut has already read its hook in this JVM (a second start in tests)
        }
    }

    /**
     * The index's lines grouped by service, in file order.
     *
     * @param skipped packages (prefixes ending in a dot) whose bean definitions are left out
     */
    static Map<String, List<String>> parse(InputStream in, List<String> skipped) throws IOException {
        Map<String, List<String>> byService = new LinkedHashMap<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            int slash = line.indexOf('/');
            if (slash <= 0 || slash == line.length() - 1) {
                continue;
            }
            String service = line.substring(0, slash).trim();
            String name = line.substring(slash + 1).trim();
            if (!service.equals(BEAN_DEFINITIONS) || skipped.stream().noneMatch(name::startsWith)) {
                byService.computeIfAbsent(service, k -> new ArrayList<>()).add(name);
            }
        }
        return byService;
    }

    /** Class names in a {@code META-INF/services} file: one a line, {@code #} starts a comment. */
    static List<String> standardProviders(ClassLoader loader, String service) {
        List<String> names = new ArrayList<>();
        try {
            for (URL url : Collections.list(loader.getResources("META-INF/services/" + service))) {
                try (BufferedReader reader = new BufferedReader(
                        new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        int comment = line.indexOf('#');
                        String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
                        if (!name.isEmpty()) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read META-INF/services/" + service, e);
        }
        return names;
    }

    /** Micronaut's static service loaders over an index: one for every service name, indexed or not. */
    static Map<String, SoftServiceLoader.StaticServiceLoader<?>> loaders(ClassLoader loader,
                                                                         Map<String, List<String>> indexed) {
        return new Loaders(loader, indexed);
    }

    /**
     * A loader for every service name Micronaut asks for (so that no request falls back to scanning the jar), made on
     * first use.
     */
    private static final class Loaders extends AbstractMap<String, SoftServiceLoader.StaticServiceLoader<?>> {

        private final ClassLoader loader;
        private final Map<String, List<String>> indexed;
        private final Map<String, SoftServiceLoader.StaticServiceLoader<?>> made = new ConcurrentHashMap<>();

        Loaders(ClassLoader loader, Map<String, List<String>> indexed) {
            this.loader = loader;
            this.indexed = indexed;
        }

        @Override
        public SoftServiceLoader.StaticServiceLoader<?> get(Object key) {
            if (!(key instanceof String service)) {
                return null;
            }
            return made.computeIfAbsent(service, s -> new Loader(loader, s, indexed.getOrDefault(s, List.of())));
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String;
        }

        @Override
        public Set<Entry<String, SoftServiceLoader.StaticServiceLoader<?>>> entrySet() {
            Set<Entry<String, SoftServiceLoader.StaticServiceLoader<?>>> entries = new LinkedHashSet<>();
            indexed.keySet().forEach(s -> entries.add(new SimpleImmutableEntry<>(s, get(s))));
            return entries;
        }
    }

    /** One service's providers: {@code META-INF/services} first, then the indexed ones, each class once. */
    private record Loader(ClassLoader loader, String service, List<String> indexed)
            implements SoftServiceLoader.StaticServiceLoader<Object> {

        @Override
        public Stream<SoftServiceLoader.StaticDefinition<Object>> findAll(Predicate<String> condition) {
            Set<String> names = new LinkedHashSet<>(standardProviders(loader, service));
            names.addAll(indexed);
            return names.stream()
                    .filter(name -> condition == null || condition.test(name))
                    .map(this::definition)
                    .filter(Objects::nonNull);
        }

        /** As Micronaut's scan: a class that is absent or has no public no-argument constructor is skipped. */
        private SoftServiceLoader.StaticDefinition<Object> definition(String className) {
            Object instance;
            try {
                Class<?> type = Class.forName(className, false, loader);
                instance = MethodHandles.publicLookup().findConstructor(type, NO_ARGUMENTS).invoke();
            } catch (NoClassDefFoundError | ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
                return null;
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("cannot instantiate service " + service + ": " + className, e);
            }
            return SoftServiceLoader.StaticDefinition.of(className, () -> instance);
        }
    }
}
