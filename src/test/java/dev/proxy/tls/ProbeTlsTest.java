package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbeTlsTest {

    @ParameterizedTest(name = "{0}: loopback {1}")
    @CsvSource({
            "127.0.0.1, true",
            "127.1.2.3, true",
            "localhost, true",
            "LOCALHOST, true",
            "[::1], true",
            "::1, true",
            "10.0.0.1, false",
            "[2001:db8::1], false",
            "example.com, false",
            "127.0.0.1.nip.io, false",
    })
    void onlyLoopbackLiteralsSkipVerification(String host, boolean loopback) {
        assertThat(ProbeTls.isLoopback(host)).isEqualTo(loopback);
    }
}
