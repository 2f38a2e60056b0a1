package dev.proxy.server.balance;

import dev.proxy.config.dynamic.Sticky;
import dev.proxy.config.dynamic.StickyCookie;
import dev.proxy.server.Exchange;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.CookieHeaderNames.SameSite;
import io.netty.handler.codec.http.cookie.DefaultCookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.handler.codec.http.cookie.ServerCookieEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Sticky sessions by cookie, for load balancers (a server) and weighted services (a member). The cookie value is
 * an opaque token of the chosen target, never its address; an unknown or stale token is ignored and replaced.
 */
final class StickySessions {

    private final StickyCookie cookie;
    private final String name;

    private StickySessions(StickyCookie cookie, String serviceName) {
        this.cookie = cookie;
        this.name = cookie.name().isEmpty() ? "_" + token(serviceName).substring(0, 6) : cookie.name();
    }

    /** Null when the configuration has no sticky section. */
    static StickySessions of(Sticky sticky, String serviceName) {
        if (sticky == null) {
            return null;
        }
        StickyCookie c = sticky.cookie() == null ? new StickyCookie(null, null, null, null, null, null, null) : sticky.cookie();
        return new StickySessions(c, serviceName);
    }

    /** The token the client's cookie carries, or null. */
    String chosen(Exchange exchange) {
        String header = exchange.request().headers().get(HttpHeaderNames.COOKIE);
        if (header == null) {
            return null;
        }
        for (Cookie c : ServerCookieDecoder.LAX.decode(header)) {
            if (c.name().equals(name)) {
                return c.value();
            }
        }
        return null;
    }

    /** Sets the cookie on the response to this exchange. */
    void remember(Exchange exchange, String token) {
        String header = encode(token);
        exchange.addResponseHeadHook(r -> r.headers().add(HttpHeaderNames.SET_COOKIE, header));
    }

    private String encode(String token) {
        DefaultCookie c = new DefaultCookie(name, token);
        c.setPath(cookie.path());
        c.setHttpOnly(cookie.httpOnly());
        c.setSecure(cookie.secure());
        if (!cookie.domain().isEmpty()) {
            c.setDomain(cookie.domain());
        }
        if (cookie.maxAge() != 0) {
            c.setMaxAge(cookie.maxAge());
        }
        switch (cookie.sameSite()) {
            case "none" -> c.setSameSite(SameSite.None);
            case "lax" -> c.setSameSite(SameSite.Lax);
            case "strict" -> c.setSameSite(SameSite.Strict);
            default -> { }
        }
        return ServerCookieEncoder.STRICT.encode(c);
    }

    /** An opaque, stable token for a string. */
    static String token(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
