package dev.proxy.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BackoffTest {

    static Stream<Arguments> delays() {
        return Stream.of(
                Arguments.of("first retry, no jitter", 0, 0.5, Duration.ofMillis(500)),
                Arguments.of("second retry ×1.5", 1, 0.5, Duration.ofMillis(750)),
                Arguments.of("third retry ×1.5²", 2, 0.5, Duration.ofMillis(1125)),
                Arguments.of("jitter at its low end: -50 %", 0, 0.0, Duration.ofMillis(250)),
                Arguments.of("jitter at its high end: +50 %", 0, 1.0, Duration.ofMillis(750)),
                Arguments.of("just below the cap", 11, 0.5, Duration.ofNanos(43_248_779_296L)),
                Arguments.of("capped at 60 s", 12, 0.5, Duration.ofSeconds(60)),
                Arguments.of("capped, jitter low", 12, 0.0, Duration.ofSeconds(30)),
                Arguments.of("capped, jitter high stays at 60 s", 12, 1.0, Duration.ofSeconds(60)),
                Arguments.of("huge attempt count does not overflow", 100_000, 0.5, Duration.ofSeconds(60)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("delays")
    void defaultBackoff(String description, int attempt, double uniform, Duration expected) {
        assertThat(Backoff.DEFAULT.delay(attempt, uniform)).isEqualTo(expected);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, 1.5, 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), 1.5, 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 1.5, 1.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
