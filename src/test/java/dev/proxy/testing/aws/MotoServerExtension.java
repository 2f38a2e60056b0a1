package dev.proxy.testing.aws;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the {@link MotoServer} shared by the whole test run: started on first use, stopped when
 * JUnit closes the root store (AutoCloseable values are closed since JUnit 5.13, which deprecated
 * {@code CloseableResource}). Tests share its state, so each seeds what it needs, under names of its
 * own, or calls {@link MotoServer#reset()} first.
 *
 * <pre>{@code
 * @ExtendWith(MotoServerExtension.class)
 * class ClusterTasksProviderIT {
 *     @Test
 *     void readsTasks(MotoServer moto) { ... }
 * }
 * }</pre>
 */
public final class MotoServerExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MotoServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MotoServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(MotoServer.class, type -> MotoServer.launch(), MotoServer.class);
    }
}
