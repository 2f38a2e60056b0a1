package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pieces of basicAuth that sockets cannot show: dummy hashes and the saturated verifier pool. */
class PasswordHashTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void dummyHashHasTheCostliestKindAndMatchesNothing() {
        PasswordHash cheap = PasswordHash.parse("$2a$04$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW");
        PasswordHash dearer = PasswordHash.parse("$2y" + BasicAuthTest.BCRYPT_UU);
        PasswordHash apr1 = PasswordHash.parse(BasicAuthTest.APR1_SECRET);
        PasswordHash sha = PasswordHash.parse(BasicAuthTest.SHA_SECRET);

        PasswordHash dummy = PasswordHash.dummyLike(List.of(sha, cheap, apr1, dearer));
        assertThat(dummy).isInstanceOfSatisfying(PasswordHash.Bcrypt.class, b -> assertThat(b.cost()).isEqualTo(5));
        assertThat(dummy.matches(bytes("U*U"))).isFalse();
        assertThat(PasswordHash.dummyLike(List.of(sha, apr1))).isInstanceOf(PasswordHash.Apr1.class);
        assertThat(PasswordHash.dummyLike(List.of(sha, apr1)).matches(bytes("secret"))).isFalse();
        assertThat(PasswordHash.dummyLike(List.of(sha))).isInstanceOf(PasswordHash.Sha1.class);
        assertThat(PasswordHash.dummyLike(List.of(sha)).matches(bytes(""))).isFalse();
    }

    @Test
    void hashesNeverPrintThemselves() {
        assertThat(PasswordHash.parse(BasicAuthTest.APR1_SECRET).toString()).doesNotContain("abcdefgh");
        assertThat(PasswordHash.parse("$2y" + BasicAuthTest.BCRYPT_UU).toString()).doesNotContain("CCCC");
        assertThat(new BasicCredentials("u", bytes("pw")).toString()).doesNotContain("pw");
    }

    @Test
    void unsupportedFormatsAreRefused() {
        assertThatThrownBy(() -> PasswordHash.parse("$1$abc$def")).hasMessageStartingWith("unsupported hash");
        assertThatThrownBy(() -> PasswordHash.parse("$2y$99$" + "C".repeat(53))).hasMessage("malformed bcrypt hash");
        assertThatThrownBy(() -> PasswordHash.parse("{SHA}tooShort")).hasMessage("malformed {SHA} hash");
    }

    @Test
    void aSaturatedPoolRefusesInsteadOfQueuing() throws Exception {
        try (VerifierPool pool = new VerifierPool(1)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch running = new CountDownLatch(1);
            assertThat(pool.submit(() -> {
                running.countDown();
                try {
                    return release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    return false;
                }
            }, ok -> { })).isTrue();
            running.await(10, TimeUnit.SECONDS);
            for (int i = 0; i < VerifierPool.QUEUE_PER_THREAD; i++) {
                assertThat(pool.submit(() -> true, ok -> { })).isTrue();
            }
            assertThat(pool.submit(() -> true, ok -> { })).isFalse();
            release.countDown();
        }
    }
}
