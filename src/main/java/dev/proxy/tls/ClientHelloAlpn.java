package dev.proxy.tls;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Reads the ALPN protocol names offered in a ClientHello (RFC 7301), which Netty's SNI handler does not expose: a
 * TLS-ALPN-01 validation (RFC 8737) offers exactly {@code acme-tls/1} and must get the challenge certificate, while
 * ordinary clients for the same name get the real one. Any malformed input reads as "not offered".
 */
final class ClientHelloAlpn {

    private static final int ALPN_EXTENSION = 16;

    private ClientHelloAlpn() {
    }

    /**
     * @param hello the ClientHello body, from {@code client_version} on (as Netty's {@code SslClientHelloHandler}
     *              passes it); not modified
     */
    static boolean offers(ByteBuf hello, String protocol) {
        byte[] wanted = protocol.getBytes(StandardCharsets.US_ASCII);
        int i = hello.readerIndex();
        int end = hello.writerIndex();
        i += 2 + 32; // client_version, random
        if (i + 1 > end) {
            return false;
        }
        i += 1 + hello.getUnsignedByte(i); // session_id
        if (i + 2 > end) {
            return false;
        }
        i += 2 + hello.getUnsignedShort(i); // cipher_suites
        if (i + 1 > end) {
            return false;
        }
        i += 1 + hello.getUnsignedByte(i); // compression_methods
        if (i + 2 > end) {
            return false;
        }
        int extensionsEnd = Math.min(end, i + 2 + hello.getUnsignedShort(i));
        i += 2;
        while (i + 4 <= extensionsEnd) {
            int type = hello.getUnsignedShort(i);
            int length = hello.getUnsignedShort(i + 2);
            i += 4;
            if (i + length > extensionsEnd) {
                return false;
            }
            if (type == ALPN_EXTENSION) {
                return listContains(hello, i, i + length, wanted);
            }
            i += length;
        }
        return false;
    }

    private static boolean listContains(ByteBuf hello, int start, int end, byte[] wanted) {
        if (start + 2 > end) {
            return false;
        }
        int listEnd = Math.min(end, start + 2 + hello.getUnsignedShort(start));
        int i = start + 2;
        while (i < listEnd) {
            int length = hello.getUnsignedByte(i);
            i++;
            if (i + length > listEnd) {
                return false;
            }
            if (length == wanted.length) {
                boolean same = true;
                for (int k = 0; k < length && same; k++) {
                    same = hello.getByte(i + k) == wanted[k];
                }
                if (same) {
                    return true;
                }
            }
            i += length;
        }
        return false;
    }
}
