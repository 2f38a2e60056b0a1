package dev.proxy.server.forward;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Forwarding-loop detection with the {@code CDN-Loop} header (RFC 8586): every forwarded request carries this
 * process's id appended to the header, and a request that arrives already carrying it has been here before — a
 * service whose address is one of the proxy's own entry points (a discovered service whose default rule matches the
 * proxy itself, say). Without the guard such a request is forwarded to itself again and again, each hop one more
 * connection, until file descriptors or memory run out; with it, the second hop answers 400 and nothing more is sent.
 *
 * <p>The id is random per process ({@code proxy-} and 16 hex digits), so two proxies chained on purpose (an edge
 * proxy in front of another one) do not mistake each other's mark for their own. It says nothing about the host;
 * backends see it, as RFC 8586 intends (a CDN in front adds its own entry to the same header).
 */
final class LoopGuard {

    static final AsciiString CDN_LOOP = AsciiString.cached("CDN-Loop");

    private final String id;

    LoopGuard() {
        this("proxy-" + HexFormat.of().formatHex(randomBytes()));
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        new SecureRandom().nextBytes(b);
        return b;
    }

    LoopGuard(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    /** Whether this process already forwarded the request: one of the header's entries is its id. */
    boolean seen(HttpHeaders headers) {
        if (!headers.contains(CDN_LOOP)) {
            return false;
        }
        for (String value : headers.getAll(CDN_LOOP)) {
            for (String entry : value.split(",")) {
                int params = entry.indexOf(';');
                String cdnId = (params < 0 ? entry : entry.substring(0, params)).trim();
                if (cdnId.equalsIgnoreCase(id)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Appends this process's id (entries from before, a CDN's say, stay). */
    void mark(HttpHeaders headers) {
        headers.add(CDN_LOOP, id);
    }
}
