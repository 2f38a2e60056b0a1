package dev.proxy.testing.consul;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link ConsulAgent} parameters (see {@link RealConsul}). Shared agents live in the root
 * context's store, so each variant starts once per test run and JUnit closes it at the end; dedicated
 * agents live in the test's own store.
 *
 * <p>By default the agents are run by {@code src/test/services/consul/agent.sh} (no Docker needed; the
 * first run builds Consul). With {@code -Dproxy.test.services=testcontainers} they run in containers.
 */
public final class ConsulExtension implements ParameterResolver {

    private static final Namespace NAMESPACE = Namespace.create(ConsulExtension.class);
    private static final Path WORK_ROOT = Path.of("target", "test-services");

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ConsulAgent.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        RealConsul wanted = parameter.findAnnotation(RealConsul.class)
                .or(() -> find(context.getElement()))
                .or(() -> find(context.getTestClass()))
                .orElse(null);
        ConsulVariant variant = wanted == null
                ? ConsulVariant.PLAIN
                : new ConsulVariant(wanted.acl(), wanted.tls());
        if (wanted != null && wanted.dedicated()) {
            String key = "dedicated-" + variant + "-" + parameter.getIndex();
            return context.getStore(NAMESPACE).getOrComputeIfAbsent(key, k -> newAgent(variant).start(), ConsulAgent.class);
        }
        ConsulAgent shared = context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(variant, v -> newAgent(variant), ConsulAgent.class);
        // A test that stopped the shared agent by mistake must not break the tests after it.
        return shared.start();
    }

    private static Optional<RealConsul> find(Optional<? extends AnnotatedElement> element) {
        return element.flatMap(e -> AnnotationSupport.findAnnotation(e, RealConsul.class));
    }

    // ConsulAgent is AutoCloseable: JUnit (5.13+) closes store values of that kind when their context ends.
    private static ConsulAgent newAgent(ConsulVariant variant) {
        if ("testcontainers".equals(System.getProperty("proxy.test.services"))) {
            return ConsulAgent.inContainer(variant);
        }
        try {
            Files.createDirectories(WORK_ROOT);
            // A fresh directory per agent: fresh ports, and the log stays in target/ for a failed run.
            Path workdir = Files.createTempDirectory(WORK_ROOT.toAbsolutePath(), "consul-" + variant + "-");
            return ConsulAgent.scripted(workdir, variant);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
