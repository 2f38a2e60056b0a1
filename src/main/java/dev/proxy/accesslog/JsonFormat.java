package dev.proxy.accesslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.proxy.config.install.AccessLogFieldsConfig;
import dev.proxy.server.ExchangeRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON object per line, with Traefik's field names ({@code ClientHost}, {@code DownstreamStatus},
 * {@code Duration} in nanoseconds, {@code RouterName}, {@code ServiceURL}, {@code request_<Header>}, …). Request
 * headers follow {@code fields.headers}: kept, dropped (the default) or written {@code REDACTED}; with
 * {@code defaultMode: keep} credentials are redacted unless a name says otherwise, and credentials in the query
 * string always are ({@link RequestTarget}). One generator is reused for every line written to the same buffer.
 */
final class JsonFormat implements LineFormat {

    static final String REDACTED = "REDACTED";

    private final JsonFactory factory = new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    private final AccessLogFieldsConfig.Headers headers;
    private final boolean noHeaders;
    private final UtcTimes times = new UtcTimes();
    private final ClientAddresses clients = new ClientAddresses();
    private ByteArrayOutputStream boundTo;
    private JsonGenerator g;

    JsonFormat(AccessLogFieldsConfig.Headers headers) {
        this.headers = headers;
        this.noHeaders = headers.dropsAll();
    }

    @Override
    public void write(AccessLogLine line, ByteArrayOutputStream out) throws IOException {
        if (out != boundTo) {
            g = factory.createGenerator(out);
            g.setRootValueSeparator(null);
            boundTo = out;
        }
        ExchangeRecord r = line.record();
        g.writeStartObject();
        g.writeStringField("ClientHost", clients.text(r.client()));
        g.writeStringField("ClientUsername", "-");
        g.writeNumberField("DownstreamContentSize", r.bytesSent());
        g.writeNumberField("DownstreamStatus", r.status() == 0 ? 499 : r.status());
        g.writeNumberField("Duration", r.durationNanos());
        g.writeStringField("EntryPointName", r.entryPoint());
        g.writeStringField("RequestAddr", r.host());
        int colon = portColon(r.host());
        g.writeStringField("RequestHost", colon > 0 ? r.host().substring(0, colon) : r.host());
        g.writeStringField("RequestPort", colon > 0 ? r.host().substring(colon + 1) : "-");
        g.writeStringField("RequestMethod", r.method());
        g.writeStringField("RequestPath", RequestTarget.redacted(r.uri()));
        g.writeStringField("RequestProtocol", r.protocol());
        g.writeStringField("RequestScheme", r.tls() ? "https" : "http");
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
        g.writeStringField("StartUTC", times.iso(line.startMillis()));
        if (!noHeaders) {
            for (Map.Entry<String, String> h : headerFields(r).entrySet()) {
                g.writeStringField(h.getKey(), h.getValue());
            }
        }
        g.writeStringField("level", "info");
        g.writeStringField("msg", "");
        g.writeStringField("time", times.iso(line.startMillis() + r.durationNanos() / 1_000_000));
        g.writeEndObject();
        g.writeRaw('\n');
        g.flush();
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

    /** Index of the colon before the port in a Host header ({@code [::1]:80} included), or -1. */
    private static int portColon(String host) {
        return host.startsWith("[") ? host.indexOf("]:") + 1 : host.lastIndexOf(':');
    }
}
