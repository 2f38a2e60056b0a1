package dev.proxy.api;

import dev.proxy.config.install.ApiConfig;
import dev.proxy.config.install.InstallConfig;
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
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The internal service {@code dashboard@internal}: one static page (HTML, script, style sheet, all in the jar; no
 * CDN) that reads the API next to it ({@code ../api/…}). {@code /} and {@code /dashboard} redirect to
 * {@code /dashboard/}. Only the files listed here are served, so no request path can reach anything else.
 */
@Singleton
@Requires(condition = DashboardEnabled.class)
public final class DashboardHandler implements InternalService {

    static final String RESOURCES = "/dev/proxy/dashboard/";
    /** The page talks to its own origin only; nothing inline, nothing framed. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(byte[] bytes, String contentType) {
    }

    private final ApiConfig api;
    private final Map<String, Asset> assets;

    @Inject
    public DashboardHandler(InstallConfig install) {
        this.api = install.api();
        this.assets = Map.of(
                "", load("index.html", "text/html; charset=utf-8"),
                "index.html", load("index.html", "text/html; charset=utf-8"),
                "app.js", load("app.js", "text/javascript; charset=utf-8"),
                "style.css", load("style.css", "text/css; charset=utf-8"));
    }

    @Override
    public String name() {
        return InternalServices.DASHBOARD;
    }

    @Override
    public void handle(Exchange exchange) {
        if (exchange.refuseUnlessGetOrHead()) {
            return;
        }
        String path = exchange.path();
        String home = api.dashboardPath() + "/";
        if (path.equals(api.basePath()) || path.equals(api.dashboardPath())) {
            FullHttpResponse r = exchange.textResponse(HttpResponseStatus.FOUND, "");
            r.headers().set(HttpHeaderNames.LOCATION, home);
            exchange.respond(r);
            return;
        }
        Asset asset = path.startsWith(home) ? assets.get(path.substring(home.length())) : null;
        if (asset == null) {
            exchange.respond(HttpResponseStatus.NOT_FOUND, "404 page not found");
            return;
        }
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                exchange.isHead() ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(asset.bytes()));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, asset.contentType());
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, asset.bytes().length);
        r.headers().set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        r.headers().set("X-Content-Type-Options", "nosniff");
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
        exchange.respond(r);
    }

    private static Asset load(String name, String contentType) {
        try (InputStream in = DashboardHandler.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("dashboard asset missing from the jar: " + name);
            }
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
