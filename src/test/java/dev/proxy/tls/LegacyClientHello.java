package dev.proxy.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Sends a hand-made TLS 1.2-style ClientHello with a chosen {@code client_version} and reads the type of the first
 * record the server answers with. The JDK cannot be made to send a TLS 1.0/1.1 ClientHello (those versions are
 * disabled JVM-wide), so this is how a test plays an old client.
 */
final class LegacyClientHello {

    static final int HANDSHAKE = 0x16;
    static final int ALERT = 0x15;
    static final int CLOSED = -1;

    private LegacyClientHello() {
    }

    /**
     * @param version {@code 0x0302} for TLS 1.1, {@code 0x0303} for TLS 1.2
     * @return {@link #HANDSHAKE} (a ServerHello), {@link #ALERT}, or {@link #CLOSED}
     */
    static int firstRecord(int port, String sni, int version) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(record(clientHello(sni, version)));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            try {
                return in.read();
            } catch (java.net.SocketException reset) {
                return CLOSED;
            }
        }
    }

    private static byte[] clientHello(String sni, int version) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        u16(body, version);
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        body.write(random);
        body.write(0); // session id
        // ECDHE-ECDSA with AES-GCM (TLS 1.2) and AES-CBC-SHA (TLS 1.0-1.2), and their RSA twins
        int[] suites = {0xC02B, 0xC02F, 0xC009, 0xC013};
        u16(body, suites.length * 2);
        for (int s : suites) {
            u16(body, s);
        }
        body.write(1);
        body.write(0); // compression: null
        ByteArrayOutputStream ext = new ByteArrayOutputStream();
        byte[] name = sni.getBytes(StandardCharsets.US_ASCII);
        extension(ext, 0, concat(u16(name.length + 3), new byte[]{0}, u16(name.length), name)); // server_name
        extension(ext, 10, concat(u16(4), u16(0x0017), u16(0x001d))); // supported_groups: P-256, X25519
        extension(ext, 11, new byte[]{1, 0}); // ec_point_formats: uncompressed
        extension(ext, 13, concat(u16(6), u16(0x0403), u16(0x0804), u16(0x0401))); // signature_algorithms
        u16(body, ext.size());
        body.write(ext.toByteArray());
        byte[] b = body.toByteArray();
        ByteArrayOutputStream hs = new ByteArrayOutputStream();
        hs.write(1); // client_hello
        hs.write((b.length >> 16) & 0xff);
        hs.write((b.length >> 8) & 0xff);
        hs.write(b.length & 0xff);
        hs.write(b);
        return hs.toByteArray();
    }

    private static byte[] record(byte[] handshake) throws IOException {
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        r.write(HANDSHAKE);
        u16(r, 0x0301); // record version, as real clients send
        u16(r, handshake.length);
        r.write(handshake);
        return r.toByteArray();
    }

    private static void extension(ByteArrayOutputStream out, int type, byte[] data) throws IOException {
        u16(out, type);
        u16(out, data.length);
        out.write(data);
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write((v >> 8) & 0xff);
        out.write(v & 0xff);
    }

    private static byte[] u16(int v) {
        return new byte[]{(byte) (v >> 8), (byte) v};
    }

    private static byte[] concat(byte[]... parts) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p);
        }
        return out.toByteArray();
    }
}
