package dev.proxy.log;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Locale;

/**
 * {@code log.format=json}: one JSON object per line, {@code {"level":"info","time":"…","logger":"…","message":"…"}}
 * plus {@code error} with the stack trace when there is one — what log shippers parse without a pattern. Field
 * names follow Traefik's JSON log ({@code level}, {@code time}, {@code message}, {@code error}).
 */
public final class JsonLogEncoder extends EncoderBase<ILoggingEvent> {

    private final JsonFactory factory = new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("level", event.getLevel().toString().toLowerCase(Locale.ROOT));
            g.writeStringField("time", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            g.writeStringField("logger", shortName(event.getLoggerName()));
            g.writeStringField("message", event.getFormattedMessage());
            IThrowableProxy error = event.getThrowableProxy();
            if (error != null) {
                g.writeStringField("error", ThrowableProxyUtil.asString(error));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    private static String shortName(String logger) {
        int dot = logger.lastIndexOf('.');
        return dot < 0 ? logger : logger.substring(dot + 1);
    }
}
