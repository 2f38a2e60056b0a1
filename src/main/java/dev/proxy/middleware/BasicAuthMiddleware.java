package dev.proxy.middleware;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.proxy.config.decode.Secret;
import dev.proxy.config.dynamic.BasicAuth;
import dev.proxy.config.dynamic.HeaderSyntax;
import dev.proxy.server.Exchange;
import dev.proxy.server.RouteHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code basicAuth}: lets through requests whose {@code Authorization: Basic} credentials match an htpasswd entry;
 * anything else — no header, a malformed one, an unknown user, a wrong password — gets 401 with a
 * {@code WWW-Authenticate} challenge, never a 5xx.
 *
 * <p>Timing: an unknown user is checked against a dummy hash of the same kind and cost as the configured ones, so
 * the answer takes as long as for a known user with a wrong password. bcrypt checks run on the {@link VerifierPool}
 * (see there why), the others inline (microseconds). Successful bcrypt checks are cached, bounded, for a few
 * minutes, keyed by a salted SHA-256 of user, password and stored hash (the password itself is never kept), so a
 * browser sending the same header on every request pays bcrypt once; failures are never cached, so guessing always
 * costs a full check.
 */
final class BasicAuthMiddleware implements HttpMiddleware {

    static final int CACHE_SIZE = 10_000;
    static final Duration CACHE_TTL = Duration.ofMinutes(10);
    private static final byte[] CACHE_SALT = SecureRandom.getSeed(16);

    private final Map<String, PasswordHash> users;
    private final PasswordHash dummy;
    private final String challenge;
    private final boolean removeHeader;
    private final String headerField;
    private final VerifierPool pool;
    private final Cache<ByteBuffer, Boolean> verified = Caffeine.newBuilder()
            .maximumSize(CACHE_SIZE).expireAfterWrite(CACHE_TTL).build();

    private BasicAuthMiddleware(BasicAuth config, Map<String, PasswordHash> users, VerifierPool pool) {
        this.users = Map.copyOf(users);
        this.dummy = PasswordHash.dummyLike(users.values());
        this.challenge = "Basic realm=\"" + config.realm() + "\"";
        this.removeHeader = config.removeHeader();
        this.headerField = config.headerField();
        this.pool = pool;
    }

    /**
     * @param localFilesAllowed whether {@code usersFile} may be read (only for the file provider's configuration)
     * @throws IllegalArgumentException for an unreadable file, a bad entry, an unsupported hash or a duplicate user
     */
    static BasicAuthMiddleware create(BasicAuth config, boolean localFilesAllowed, VerifierPool pool) {
        List<String> entries = new ArrayList<>();
        if (!config.usersFile().isEmpty()) {
            if (!localFilesAllowed) {
                throw new IllegalArgumentException("usersFile is only honoured in the file provider's configuration");
            }
            try {
                for (String line : Files.readAllLines(Path.of(config.usersFile()), StandardCharsets.UTF_8)) {
                    String l = line.trim();
                    if (!l.isEmpty() && !l.startsWith("#")) {
                        entries.add(l);
                    }
                }
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("cannot read usersFile " + config.usersFile() + ": " + e.getClass().getSimpleName());
            }
        }
        config.users().stream().map(Secret::reveal).forEach(entries::add);
        Map<String, PasswordHash> users = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            int colon = entry.indexOf(':');
            String user = colon > 0 ? entry.substring(0, colon) : "";
            // Neither the entry nor the hash is repeated in messages; the user name is safe to show.
            if (user.isEmpty() || !HeaderSyntax.isFieldValue(user)) {
                throw new IllegalArgumentException("user entry " + (i + 1) + " is not name:hash");
            }
            PasswordHash hash;
            try {
                hash = PasswordHash.parse(entry.substring(colon + 1).trim());
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException("user " + user + ": " + bad.getMessage());
            }
            if (users.put(user, hash) != null) {
                // Two hashes for one name: which one applies would be a guess; refuse (fail closed).
                throw new IllegalArgumentException("user " + user + " is defined twice");
            }
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("no users");
        }
        return new BasicAuthMiddleware(config, users, pool);
    }

    @Override
    public RouteHandler wrap(RouteHandler next) {
        return HttpMiddleware.around(next, exchange -> authenticate(exchange, next));
    }

    private void authenticate(Exchange exchange, RouteHandler next) {
        BasicCredentials credentials = BasicCredentials.parse(exchange.headerValues(HttpHeaderNames.AUTHORIZATION.toString()));
        if (credentials == null) {
            unauthorized(exchange);
            return;
        }
        PasswordHash known = users.get(credentials.user());
        PasswordHash hash = known != null ? known : dummy;
        if (!hash.slow()) {
            boolean ok = hash.matches(credentials.password()) && known != null;
            proceed(exchange, next, ok, credentials.user());
            return;
        }
        ByteBuffer key = known == null ? null : cacheKey(credentials, known);
        if (key != null && verified.getIfPresent(key) != null) {
            proceed(exchange, next, true, credentials.user());
            return;
        }
        Suspended waiting = new Suspended(exchange);
        boolean queued = pool.submit(() -> hash.matches(credentials.password()), ok -> {
            if (ok && key != null) {
                verified.put(key, Boolean.TRUE);
            }
            waiting.resume(() -> proceed(exchange, next, ok && known != null, credentials.user()));
        });
        if (!queued) {
            waiting.resume(() -> {
                FullHttpResponse busy = exchange.textResponse(HttpResponseStatus.SERVICE_UNAVAILABLE, "Service Unavailable");
                busy.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
                exchange.respond(busy);
            });
        }
    }

    private void proceed(Exchange exchange, RouteHandler next, boolean ok, String user) {
        if (!ok) {
            unauthorized(exchange);
            return;
        }
        if (removeHeader) {
            exchange.request().headers().remove(HttpHeaderNames.AUTHORIZATION);
        }
        if (!headerField.isEmpty()) {
            exchange.request().headers().set(headerField, user); // a configured name, checked when built
        }
        next.handle(exchange);
    }

    private void unauthorized(Exchange exchange) {
        FullHttpResponse r = exchange.textResponse(HttpResponseStatus.UNAUTHORIZED, "401 Unauthorized");
        r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, challenge);
        exchange.respond(r);
    }

    /** Only bcrypt results are cached: the others cost less to recompute than to look up. */
    private static ByteBuffer cacheKey(BasicCredentials c, PasswordHash hash) {
        if (!(hash instanceof PasswordHash.Bcrypt bcrypt)) {
            return null;
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(CACHE_SALT);
            byte[] user = c.user().getBytes(StandardCharsets.UTF_8);
            // Length-prefixed, so that no two (user, password) pairs give the same input.
            sha.update(ByteBuffer.allocate(8).putInt(user.length).putInt(c.password().length).array());
            sha.update(user);
            sha.update(c.password());
            sha.update(bcrypt.hash().getBytes(StandardCharsets.US_ASCII));
            return ByteBuffer.wrap(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Entries of the verified cache, for tests. */
    long cachedEntries() {
        verified.cleanUp();
        return verified.estimatedSize();
    }
}
