package dev.proxy.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.proxy.config.install.LogConfig;
import dev.proxy.testing.Http;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class JsonLogEncoderTest {

    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> decode(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n").doesNotContain("\n\n");
        assertThat(text.strip()).doesNotContain("\n");
        return (Map<String, Object>) Http.json(text);
    }

    @Test
    void oneObjectPerLineWithLevelTimeLoggerAndMessage() {
        LoggingEvent e = new LoggingEvent("x", context.getLogger("dev.proxy.server.RoutingService"), Level.WARN,
                "router {} disabled: \"quoted\"\nand a second line", null, new Object[] {"web@file"});
        e.setTimeStamp(1_700_000_000_123L);
        Map<String, Object> line = decode(new JsonLogEncoder().encode(e));
        assertThat(line).isEqualTo(Map.of("level", "warn", "time", Instant.ofEpochMilli(1_700_000_000_123L).toString(),
                "logger", "RoutingService", "message", "router web@file disabled: \"quoted\"\nand a second line"));
    }

    @Test
    void stackTracesGoInTheErrorField() {
        LoggingEvent e = new LoggingEvent("x", context.getLogger("dev.proxy.X"), Level.ERROR, "failed",
                new IllegalStateException("boom"), null);
        Map<String, Object> line = decode(new JsonLogEncoder().encode(e));
        assertThat((String) line.get("error")).startsWith("java.lang.IllegalStateException: boom")
                .contains("at dev.proxy.log.JsonLogEncoderTest");
    }

    @Test
    void logSetupSwitchesTheConsoleToJsonAndSetsTheLevel() {
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        @SuppressWarnings("unchecked")
        OutputStreamAppender<ILoggingEvent> console = (OutputStreamAppender<ILoggingEvent>) root.getAppender(LogSetup.CONSOLE);
        Encoder<ILoggingEvent> before = console.getEncoder();
        Level levelBefore = context.getLogger("dev.proxy").getLevel();
        try {
            LogSetup.apply(new LogConfig(LogConfig.Level.DEBUG, LogConfig.Format.JSON));
            assertThat(console.getEncoder()).isInstanceOf(JsonLogEncoder.class);
            assertThat(context.getLogger("dev.proxy").getLevel()).isEqualTo(Level.DEBUG);
            LogSetup.apply(new LogConfig(LogConfig.Level.FATAL, null));
            assertThat(context.getLogger("dev.proxy").getLevel()).isEqualTo(Level.ERROR);
        } finally {
            console.stop();
            console.setEncoder(before);
            console.start();
            context.getLogger("dev.proxy").setLevel(levelBefore);
        }
    }
}
