package dev.proxy.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.proxy.rules.IpRanges;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Fuzz target for the X-Forwarded-For parsing of {@code ipStrategy} (ipAllowList, rateLimit). Seeds: the first byte
 * picks the depth (0-3), the rest is header values separated by newlines, in
 * {@code src/test/resources/dev/proxy/middleware/ForwardedForFuzzTestInputs/clientAddress/}.
 */
class ForwardedForFuzzTest {

    /** What the test accepts as an IP literal, written independently of the code: IPv6 with a colon, or IPv4. */
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*");
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9]|0[0-9]{0,2})"
            + "(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9]|0[0-9]{0,2})){3}");
    private static final IpRanges EXCLUDED = IpRanges.parse(List.of("127.0.0.0/8", "::1/128"));

    /**
     * Any header values: nothing is thrown; an address comes back only from an entry that is an IP literal (never a
     * host name, which would mean a DNS lookup, nor shorthand like {@code 127.1}); with a depth it is that entry.
     */
    @FuzzTest(maxDuration = "60s")
    void clientAddress(byte[] input) {
        int depth = input.length == 0 ? 0 : (input[0] & 0xff) % 4;
        String text = input.length == 0 ? "" : new String(input, 1, input.length - 1, StandardCharsets.UTF_8);
        List<String> chain = ClientAddressStrategy.forwardedFor(Arrays.asList(text.split("\n", -1)));
        chain.forEach(entry -> assertThat(entry).isNotEmpty().doesNotContain(",").isEqualTo(entry.trim()));

        InetAddress picked = ClientAddressStrategy.pick(chain, depth, EXCLUDED);
        if (picked == null) {
            return;
        }
        if (depth > 0) {
            String entry = chain.get(chain.size() - depth);
            assertLiteral(entry);
            assertThat(picked).isEqualTo(ClientAddressStrategy.literal(entry));
        } else {
            assertThat(EXCLUDED.contains(picked)).isFalse();
            assertThat(chain).anySatisfy(entry -> assertThat(ClientAddressStrategy.literal(entry)).isEqualTo(picked));
        }
        chain.forEach(entry -> {
            if (ClientAddressStrategy.literal(entry) != null) {
                assertLiteral(entry);
            }
        });
    }

    private static void assertLiteral(String entry) {
        assertThat(entry.length()).isLessThanOrEqualTo(45);
        assertThat(entry.indexOf(':') >= 0 ? IPV6.matcher(entry).matches() : IPV4.matcher(entry).matches())
                .as("\"%s\" is an IP literal", entry).isTrue();
    }
}
