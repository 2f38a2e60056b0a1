package dev.proxy.metrics;

import dev.proxy.server.Exchange;
import dev.proxy.server.InternalService;
import dev.proxy.server.InternalServices;
import io.micronaut.context.annotation.Requires;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;

/** The internal service {@code prometheus@internal}: the metrics in Prometheus' text format. GET and HEAD only. */
@Singleton
@Requires(condition = MetricsEnabled.class)
public final class PrometheusHandler implements InternalService {

    private final ProxyMetrics metrics;

    public PrometheusHandler(ProxyMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public String name() {
        return InternalServices.PROMETHEUS;
    }

    @Override
    public void handle(Exchange exchange) {
        if (exchange.refuseUnlessGetOrHead()) {
            return;
        }
        String accept = exchange.request().headers().get(HttpHeaderNames.ACCEPT);
        byte[] body = metrics.scrape(accept).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                exchange.isHead() ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, metrics.contentType(accept));
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        exchange.respond(r);
    }
}
