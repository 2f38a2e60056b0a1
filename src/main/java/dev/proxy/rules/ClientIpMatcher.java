package dev.proxy.rules;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import java.net.InetAddress;
import java.util.function.Predicate;

/**
 * The {@code ClientIP} matcher: the socket peer address is the given IPv4/IPv6 address or lies in the given CIDR
 * block. Forwarded headers are never consulted.
 *
 * <p>Families follow Go's {@code net} package, which Traefik uses: an IPv4-mapped IPv6 address
 * ({@code ::ffff:192.0.2.1}) is the IPv4 address, on the rule side and the client side, so {@code 192.0.2.0/24}
 * matches a client seen as {@code ::ffff:192.0.2.1} on a dual-stack socket; an IPv6 block that is not within
 * {@code ::ffff:0:0/96} (such as {@code ::/0}) matches only IPv6 clients.
 *
 * <p>Addresses are held as two longs and compared under a mask: no parsing or allocation per request beyond
 * {@link InetAddress#getAddress()}'s copy.
 */
final class ClientIpMatcher implements Predicate<RequestFacts> {

    /**
     * Literal addresses only, in their usual forms: no host names (no DNS at compile time), no inet_aton
     * shorthands ({@code 10.1}), no leading zeros ({@code 010.0.0.1} is octal to some parsers, decimal to
     * others), no zones, ranges, wildcards or masks.
     */
    private static final IPAddressStringParameters LITERAL = new IPAddressStringParameters.Builder()
            .allowEmpty(false).allowAll(false).allowSingleSegment(false).allowMask(false).allowPrefixOnly(false)
            .allowWildcardedSeparator(false).setRangeOptions(RangeParameters.NO_RANGE).allow_inet_aton(false)
            .getIPv4AddressParametersBuilder().allowLeadingZeros(false).allowBinary(false).getParentBuilder()
            .getIPv6AddressParametersBuilder().allowZone(false).allowBase85(false).allowBinary(false)
            .getParentBuilder()
            .toParams();

    private static final long MAPPED_PREFIX = 0xffffL << 32; // low 64 bits of ::ffff:0:0

    private final boolean ipv4;
    private final long networkHigh;
    private final long networkLow;
    private final long maskHigh;
    private final long maskLow;

    private ClientIpMatcher(boolean ipv4, long networkHigh, long networkLow, int prefix) {
        this.ipv4 = ipv4;
        this.maskHigh = prefix >= 64 ? -1L : prefix == 0 ? 0 : -1L << (64 - prefix);
        this.maskLow = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        this.networkHigh = networkHigh & maskHigh;
        this.networkLow = networkLow & maskLow;
    }

    /** @throws IllegalArgumentException if {@code text} is not an IP address or CIDR block */
    static ClientIpMatcher of(String text) {
        IPAddress address;
        try {
            // the library tolerates surrounding spaces; a rule with them is more likely a typo than intended
            address = text.strip().equals(text) ? new IPAddressString(text, LITERAL).toAddress() : null;
        } catch (AddressStringException e) {
            address = null;
        }
        if (address == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR block");
        }
        Integer prefixLength = address.getNetworkPrefixLength();
        IPAddress network = (prefixLength == null ? address : address.toPrefixBlock()).getLower();
        byte[] bytes = network.getBytes();
        if (bytes.length == 4) {
            int prefix = prefixLength == null ? 32 : prefixLength;
            return new ClientIpMatcher(true, 0, MAPPED_PREFIX | (int32(bytes, 0) & 0xffffffffL), 96 + prefix);
        }
        int prefix = prefixLength == null ? 128 : prefixLength;
        long high = int64(bytes, 0);
        long low = int64(bytes, 8);
        // a block within ::ffff:0:0/96 is an IPv4 block (a shorter prefix cannot keep all of ::ffff set)
        return new ClientIpMatcher(high == 0 && (low >>> 32) == 0xffffL && prefix >= 96, high, low, prefix);
    }

    @Override
    public boolean test(RequestFacts request) {
        return contains(request.clientAddress());
    }

    /** Whether the address is in this range (IPv4-mapped IPv6 addresses count as IPv4). */
    boolean contains(InetAddress client) {
        if (client == null) {
            return false;
        }
        byte[] bytes = client.getAddress();
        long high;
        long low;
        if (bytes.length == 4) {
            high = 0;
            low = MAPPED_PREFIX | (int32(bytes, 0) & 0xffffffffL);
        } else {
            high = int64(bytes, 0);
            low = int64(bytes, 8);
        }
        boolean clientIpv4 = high == 0 && (low >>> 32) == 0xffffL;
        return clientIpv4 == ipv4
                && (high & maskHigh) == networkHigh
                && (low & maskLow) == networkLow;
    }

    private static int int32(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }

    private static long int64(byte[] b, int at) {
        return (long) int32(b, at) << 32 | (int32(b, at + 4) & 0xffffffffL);
    }
}
