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
                List<String> chain = forwardedFor(exchange);
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
        };
    }

    static List<String> forwardedFor(Exchange exchange) {
        List<String> out = new ArrayList<>();
        for (String header : exchange.headerValues("X-Forwarded-For")) {
            for (String part : header.split(",")) {
                String p = part.trim();
                if (!p.isEmpty()) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Parses an IP literal without ever doing a DNS lookup; null when it is not one. */
    static InetAddress literal(String s) {
        if (s.length() > 45 || !s.matches("[0-9a-fA-F:.]+")) {
            return null;
        }
        try {
            return InetAddress.getByName(s); // only literals reach here, so no resolution happens
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
