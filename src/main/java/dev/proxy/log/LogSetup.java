package dev.proxy.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import dev.proxy.config.install.LogConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code log.level} and {@code log.format} to logback before anything else logs: the level of the proxy's
 * own loggers ({@code dev.proxy}), and the encoder of the console appender declared in {@code logback.xml}.
 */
public final class LogSetup {

    /** The console appender's name in {@code logback.xml}. */
    static final String CONSOLE = "STDOUT";

    private LogSetup() {
    }

    public static void apply(LogConfig log) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext lc)) {
            return; // another SLF4J binding (tests): its own configuration applies
        }
        Level level = switch (log.level()) {
            case TRACE -> Level.TRACE;
            case DEBUG -> Level.DEBUG;
            case INFO -> Level.INFO;
            case WARN -> Level.WARN;
            case ERROR, FATAL, PANIC -> Level.ERROR;
        };
        lc.getLogger("dev.proxy").setLevel(level);
        if (log.format() == LogConfig.Format.JSON) {
            Appender<ILoggingEvent> console = lc.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(CONSOLE);
            if (console instanceof OutputStreamAppender<ILoggingEvent> appender) {
                JsonLogEncoder encoder = new JsonLogEncoder();
                encoder.setContext(lc);
                encoder.start();
                appender.stop();
                appender.setEncoder(encoder);
                appender.start();
            }
        }
    }
}
