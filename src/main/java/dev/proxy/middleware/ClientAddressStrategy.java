package dev.proxy.middleware;

import dev.proxy.config.dynamic.IpStrategy;
import dev.proxy.rules.IpRanges;
import dev.proxy.server.Exchange;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Which address is "the client" for a middleware: the socket peer (default), or an entry of X-Forwarded-For chosen
 * by {@code ipStrategy} — {@code depth} n: the n-th entry from the right; {@code excludedIPs}: the first entry from the
 * right that is not excluded. A header entry that is not an IP literal yields no address (the request is refused).
 */
public abstract class ClientAddressStrategy {

    public abstract InetAddress clientAddress(Exchange exchange);

    public static ClientAddressStrategy of(IpStrategy config) {
        if (config == null || config.depth() == 0 && config.excludedIPs().isEmpty()) {
            return new ClientAddressStrategy() {
                @Override
                public InetAddress clientAddress(Exchange exchange) {
                    return exchange.clientAddress();
                }
            };
        }
        int depth = config.depth();
        IpRanges excluded = IpRanges.parse(config.excludedIPs());
        return new ClientAddressStrategy() {
            @Override
            public InetAddress clientAddress(Exchange exchange) {
                return pick(forwardedFor(exchange.headerValues("X-Forwarded-For")), depth, excluded);
            }
        };
    }

    /** The entry {@code depth} from the right, or (depth 0) the first from the right not in {@code excluded}. */
    static InetAddress pick(List<String> chain, int depth, IpRanges excluded) {
        if (depth > 0) {
            return depth <= chain.size() ? literal(chain.get(chain.size() - depth)) : null;
        }
        for (int i = chain.size() - 1; i >= 0; i--) {
            InetAddress a = literal(chain.get(i));
            if (a == null || !excluded.contains(a)) {
                return a;
            }
        }
        return null;
    }

    /** The entries of every X-Forwarded-For value, left to right, trimmed, empty ones dropped. */
    static List<String> forwardedFor(List<String> headers) {
        List<String> out = new ArrayList<>();
        for (String header : headers) {
            for (String part : header.split(",")) {
                String p = part.trim();
                if (!p.isEmpty()) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /**
     * Parses an IP literal without ever doing a DNS lookup; null when it is not one. Only dotted-quad IPv4 and IPv6
     * (with a colon) reach {@link InetAddress#getByName}: it would resolve anything else it cannot read as a literal
     * — {@code cafe.be} is all hex characters — and it reads {@code 1} or {@code 127.1} as shorthand IPv4, which no
     * proxy writes into X-Forwarded-For.
     */
    static InetAddress literal(String s) {
        if (s.length() > 45) {
            return null;
        }
        if (s.indexOf(':') >= 0) {
            if (!HEX_COLON_DOT.matcher(s).matches()) {
                return null;
            }
        } else if (!isDottedQuad(s)) {
            return null;
        }
        try {
            // Starting with a hex digit or a colon and holding a colon, a string that is no IPv6 literal fails here
            // without a lookup.
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private static final java.util.regex.Pattern HEX_COLON_DOT = java.util.regex.Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*");
    private static final java.util.regex.Pattern DOTTED_QUAD =
            java.util.regex.Pattern.compile("([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})");

    private static boolean isDottedQuad(String s) {
        java.util.regex.Matcher m = DOTTED_QUAD.matcher(s);
        if (!m.matches()) {
            return false;
        }
        for (int g = 1; g <= 4; g++) {
            if (Integer.parseInt(m.group(g)) > 255) {
                return false;
            }
        }
        return true;
    }
}
