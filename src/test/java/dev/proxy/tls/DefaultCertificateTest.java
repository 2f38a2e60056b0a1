package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The generated default certificate is made when a handshake first needs it, not at start, and then kept. */
class DefaultCertificateTest {

    @Test
    void theStoreAsksForItsDefaultOnlyWhenNoCertificateMatches() {
        AtomicInteger asked = new AtomicInteger();
        ServerCertificate named = SelfSignedCertificate.generate("a.example.com", List.of("a.example.com"), "test");
        Supplier<ServerCertificate> generated = SelfSignedCertificate.onFirstUse();
        CertificateStore store = new CertificateStore(List.of(named), () -> {
            asked.incrementAndGet();
            return generated.get();
        });
        assertThat(store.match("a.example.com")).isSameAs(named);
        assertThat(store.match("b.example.com")).isNull();
        assertThat(asked).hasValue(0);
        assertThat(store.defaultCertificate().names()).containsExactly(SelfSignedCertificate.COMMON_NAME.toLowerCase());
        assertThat(asked).hasValue(1);
    }

    @Test
    void generatedOnceThenTheSameObject() {
        Supplier<ServerCertificate> generated = SelfSignedCertificate.onFirstUse();
        ServerCertificate first = generated.get();
        assertThat(generated.get()).isSameAs(first);
        assertThat(first.origin()).isEqualTo("generated");
    }
}
