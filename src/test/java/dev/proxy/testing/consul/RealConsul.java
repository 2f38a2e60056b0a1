package dev.proxy.testing.consul;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Injects a running {@link ConsulAgent} into a test's {@code ConsulAgent} parameters. Put it on the
 * class, a method or the parameter itself (the nearest one wins), so one class can use several variants:
 *
 * <pre>{@code
 * @RealConsul
 * class CatalogIT {
 *     @Test void plain(ConsulAgent consul) { ... }
 *     @Test void withAcl(@RealConsul(acl = true) ConsulAgent consul) { ... }
 * }
 * }</pre>
 *
 * One agent per variant is shared by the whole test run; a test that stops, restarts or otherwise
 * disturbs its agent asks for a {@link #dedicated()} one.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.PARAMETER})
@ExtendWith(ConsulExtension.class)
public @interface RealConsul {

    /** ACLs on, default policy deny, with a management and a read-only token. */
    boolean acl() default false;

    /** An HTTPS listener demanding a client certificate signed by a test CA. */
    boolean tls() default false;

    /** An agent of this test's own, stopped after it, instead of the run-wide shared one. */
    boolean dedicated() default false;
}
