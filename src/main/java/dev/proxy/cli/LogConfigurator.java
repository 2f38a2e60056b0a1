package dev.proxy.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The proxy's log set-up, in code rather than {@code logback.xml}: parsing XML through Joran loads ~600 classes and
 * costs ~0.2 s of every start. Found by logback through {@code META-INF/services}. A file given with
 * {@code -Dlogback.configurationFile=…} still wins, for debugging.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {

    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0}: %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("STDOUT");
        console.setEncoder(encoder);
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        // Libraries log at WARN and above; --log.level sets the proxy's own loggers (dev.proxy).
        context.getLogger("io.netty").setLevel(Level.WARN);
        context.getLogger("io.micronaut").setLevel(Level.WARN);
        context.getLogger("io.lettuce").setLevel(Level.WARN);
        // logs every reconnection attempt to Redis; rateLimit logs the state changes once each instead
        context.getLogger("io.lettuce.core.protocol.ConnectionWatchdog").setLevel(Level.ERROR);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
