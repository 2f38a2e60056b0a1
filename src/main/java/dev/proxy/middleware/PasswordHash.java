package dev.proxy.middleware;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.Md5Crypt;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * An htpasswd password hash. Which library checks which format, and why:
 * <ul>
 *   <li>bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}; {@code htpasswd -B}): Spring Security Crypto's
 *       {@link BCrypt} — maintained by the Spring Security team, no runtime dependencies, accepts all three minor
 *       versions and compares without early return;</li>
 *   <li>apr1 ({@code $apr1$}; {@code htpasswd -m}, the default): Apache Commons Codec's {@link Md5Crypt#apr1Crypt};</li>
 *   <li>SHA1 ({@code {SHA}}; {@code htpasswd -s}): the JDK's SHA-1.</li>
 * </ul>
 * Other crypt(3) formats and plain text are refused when the configuration is built (fail closed). Every
 * comparison of derived values uses {@link MessageDigest#isEqual}, which takes the same time wherever they differ.
 */
sealed interface PasswordHash {

    Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(\\d\\d)\\$[./A-Za-z0-9]{53}");
    Pattern APR1 = Pattern.compile("\\$apr1\\$[./0-9A-Za-z]{1,8}\\$[./0-9A-Za-z]{22}");

    /** Whether {@code password} (the raw bytes the client sent) matches. */
    boolean matches(byte[] password);

    /** Slow hashes are checked off the event loop and their successes cached. */
    boolean slow();

    /** @throws IllegalArgumentException for an unsupported or malformed hash (the hash is not repeated) */
    static PasswordHash parse(String hash) {
        if (hash.startsWith("$2")) {
            var m = BCRYPT.matcher(hash);
            int cost = m.matches() ? Integer.parseInt(m.group(1)) : -1;
            if (cost < 4 || cost > 31) {
                throw new IllegalArgumentException("malformed bcrypt hash");
            }
            return new Bcrypt(hash, cost);
        }
        if (hash.startsWith("$apr1$")) {
            if (!APR1.matcher(hash).matches()) {
                throw new IllegalArgumentException("malformed apr1 hash");
            }
            return new Apr1(hash);
        }
        if (hash.startsWith("{SHA}")) {
            byte[] digest;
            try {
                digest = Base64.getDecoder().decode(hash.substring(5));
            } catch (IllegalArgumentException e) {
                digest = new byte[0];
            }
            if (digest.length != 20) {
                throw new IllegalArgumentException("malformed {SHA} hash");
            }
            return new Sha1(digest);
        }
        throw new IllegalArgumentException("unsupported hash (use bcrypt, apr1 or {SHA}, e.g. htpasswd -nB user)");
    }

    /**
     * A hash of the same kind and cost as the costliest of {@code hashes}, matching no password: checked for
     * unknown users so that their answer takes as long as a known user's and does not tell which names exist.
     */
    static PasswordHash dummyLike(Iterable<PasswordHash> hashes) {
        int bcryptCost = -1;
        boolean apr1 = false;
        for (PasswordHash h : hashes) {
            if (h instanceof Bcrypt b) {
                bcryptCost = Math.max(bcryptCost, b.cost());
            }
            apr1 |= h instanceof Apr1;
        }
        if (bcryptCost > 0) {
            // Any well-formed hash of that cost does: the work does not depend on the salt or the digest.
            return new Bcrypt(String.format("$2y$%02d$%s", bcryptCost, "Ro0CUfOqk6cXEKf3dyaM7OhSCvnwM9s4wIX9JeLapehKK5YdLxKcm"), bcryptCost);
        }
        return apr1 ? new Apr1("$apr1$dummysal$9gN5E8.Lw0yY1x7Tq3rN9/") : new Sha1(new byte[20]);
    }

    record Bcrypt(String hash, int cost) implements PasswordHash {
        /** bcrypt only reads 72 bytes; like Go's bcrypt (Traefik), longer passwords are refused, not truncated. */
        static final int MAX_PASSWORD_BYTES = 72;

        @Override
        public boolean matches(byte[] password) {
            if (password.length > MAX_PASSWORD_BYTES) {
                return false;
            }
            try {
                return BCrypt.checkpw(password, hash);
            } catch (IllegalArgumentException malformed) {
                return false;
            }
        }

        @Override
        public boolean slow() {
            return true;
        }

        @Override
        public String toString() {
            return "Bcrypt[****]";
        }
    }

    record Apr1(String hash) implements PasswordHash {
        @Override
        public boolean matches(byte[] password) {
            String computed = Md5Crypt.apr1Crypt(password, hash); // takes the salt from the stored hash
            return MessageDigest.isEqual(computed.getBytes(StandardCharsets.US_ASCII), hash.getBytes(StandardCharsets.US_ASCII));
        }

        @Override
        public boolean slow() {
            return false;
        }

        @Override
        public String toString() {
            return "Apr1[****]";
        }
    }

    record Sha1(byte[] digest) implements PasswordHash {
        @Override
        public boolean matches(byte[] password) {
            try {
                return MessageDigest.isEqual(MessageDigest.getInstance("SHA-1").digest(password), digest);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public boolean slow() {
            return false;
        }

        @Override
        public String toString() {
            return "Sha1[****]";
        }
    }
}
