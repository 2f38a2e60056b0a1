package dev.proxy.accesslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.proxy.config.install.AccessLogFieldsConfig;
import dev.proxy.server.ExchangeRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON object per line, with Traefik's field names ({@code ClientHost}, {@code DownstreamStatus},
 * {@code Duration} in nanoseconds, {@code RouterName}, {@code ServiceURL}, {@code request_<Header>}, …). Request
 * headers follow {@code fields.headers}: kept, dropped (the default) or written {@code REDACTED}; credentials are
 * redacted unless a name says otherwise, and so are credentials in the query string ({@link RequestTarget}).
 */
final class JsonFormat implements LineFormat {

    static final String REDACTED = "REDACTED";

    private final JsonFactory factory = new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    private final AccessLogFieldsConfig.Headers headers;

    JsonFormat(AccessLogFieldsConfig.Headers headers) {
        this.headers = headers;
    }

    @Override
    public void write(AccessLogLine line, ByteArrayOutputStream out) throws IOException {
        ExchangeRecord r = line.record();
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("ClientHost", r.client() == null ? "" : r.client().getHostAddress());
            g.writeStringField("ClientUsername", "-");
            g.writeNumberField("DownstreamContentSize", r.bytesSent());
            g.writeNumberField("DownstreamStatus", r.status() == 0 ? 499 : r.status());
            g.writeNumberField("Duration", r.durationNanos());
            g.writeStringField("EntryPointName", r.entryPoint());
            g.writeStringField("RequestAddr", r.host());
            g.writeStringField("RequestHost", host(r.host()));
            g.writeStringField("RequestPort", port(r.host()));
            g.writeStringField("RequestMethod", r.method());
            g.writeStringField("RequestPath", RequestTarget.redacted(r.uri()));
            g.writeStringField("RequestProtocol", r.protocol());
            g.writeStringField("RequestScheme", "http");
            g.writeNumberField("RequestCount", line.requestCount());
            if (r.router() != null) {
                g.writeStringField("RouterName", r.router());
            }
            if (r.service() != null) {
                g.writeStringField("ServiceName", r.service());
            }
            if (r.serviceUrl() != null) {
                g.writeStringField("ServiceURL", r.serviceUrl());
            }
            g.writeStringField("StartUTC", Instant.ofEpochMilli(line.startMillis()).toString());
            for (Map.Entry<String, String> h : headerFields(r).entrySet()) {
                g.writeStringField(h.getKey(), h.getValue());
            }
            g.writeStringField("level", "info");
            g.writeStringField("msg", "");
            g.writeStringField("time", Instant.ofEpochMilli(line.startMillis() + r.durationNanos() / 1_000_000).toString());
            g.writeEndObject();
        }
        out.write('\n');
    }

    /** {@code request_<Header>} fields by mode; several values of one header are joined with {@code ", "}. */
    private Map<String, String> headerFields(ExchangeRecord r) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : r.headers()) {
            AccessLogFieldsConfig.Mode mode = headers.modeOf(h.getKey());
            if (mode == AccessLogFieldsConfig.Mode.DROP) {
                continue;
            }
            String value = mode == AccessLogFieldsConfig.Mode.REDACT ? REDACTED : h.getValue();
            fields.merge("request_" + canonical(h.getKey()), value,
                    (a, b) -> mode == AccessLogFieldsConfig.Mode.REDACT ? REDACTED : a + ", " + b);
        }
        return fields;
    }

    /** {@code user-agent} → {@code User-Agent}, as Go (and so Traefik) writes header names. */
    static String canonical(String name) {
        StringBuilder b = new StringBuilder(name.length());
        boolean upper = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
            upper = c == '-';
        }
        return b.toString();
    }

    private static String host(String hostHeader) {
        int colon = hostHeader.startsWith("[") ? hostHeader.indexOf("]:") + 1 : hostHeader.lastIndexOf(':');
        return colon > 0 ? hostHeader.substring(0, colon) : hostHeader;
    }

    private static String port(String hostHeader) {
        int colon = hostHeader.startsWith("[") ? hostHeader.indexOf("]:") + 1 : hostHeader.lastIndexOf(':');
        return colon > 0 ? hostHeader.substring(colon + 1) : "-";
    }
}
