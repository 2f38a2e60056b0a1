package dev.proxy.rules;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A set of IP addresses and CIDR ranges ({@code 10.0.0.0/8}, {@code ::1}), matched the way {@code ClientIP} matches:
 * for trusted forwarded-header peers and allow lists.
 */
public final class IpRanges {

    private final List<ClientIpMatcher> ranges;

    private IpRanges(List<ClientIpMatcher> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * @throws IllegalArgumentException naming the first entry that is not an address or CIDR range
     */
    public static IpRanges parse(List<String> entries) {
        List<ClientIpMatcher> out = new ArrayList<>();
        for (String e : entries) {
            try {
                out.add(ClientIpMatcher.of(e.trim()));
            } catch (RuntimeException bad) {
                throw new IllegalArgumentException("\"" + e + "\" is not an IP address or CIDR range");
            }
        }
        return new IpRanges(out);
    }

    public boolean contains(InetAddress address) {
        for (ClientIpMatcher r : ranges) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }
}
