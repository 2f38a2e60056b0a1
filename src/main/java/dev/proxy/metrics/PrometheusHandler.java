package dev.proxy.metrics;

import dev.proxy.server.Exchange;
import dev.proxy.server.InternalService;
import dev.proxy.server.InternalServices;
import io.micronaut.context.annotation.Requires;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
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
        exchange.respond(exchange.response(HttpResponseStatus.OK, metrics.contentType(accept), body));
    }
}
