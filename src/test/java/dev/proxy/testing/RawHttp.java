package dev.proxy.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A raw-socket HTTP client for hostile-input tests: sends bytes exactly as written (ISO-8859-1, one byte per char)
 * to 127.0.0.1 and reads what comes back until the server closes the connection or goes quiet.
 */
public final class RawHttp {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3}) ");

    private RawHttp() {
    }

    /** What the server sent, and whether it closed the connection (EOF) before {@code quietMillis} of silence. */
    public record Reply(String text, boolean closed) {

        /** The status codes of the responses in the reply, in order. */
        public List<Integer> statuses() {
            List<Integer> codes = new ArrayList<>();
            Matcher m = STATUS_LINE.matcher(text);
            while (m.find()) {
                codes.add(Integer.parseInt(m.group(1)));
            }
            return codes;
        }
    }

    /** Sends {@code raw} and reads until EOF, or until nothing arrived for {@code quietMillis}. */
    public static Reply exchange(int port, String raw, int quietMillis) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(quietMillis);
            s.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            boolean closed;
            while (true) {
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException e) {
                    closed = false;
                    break;
                } catch (IOException e) {
                    closed = true; // reset by the server
                    break;
                }
                if (n < 0) {
                    closed = true;
                    break;
                }
                got.write(buf, 0, n);
            }
            return new Reply(got.toString(StandardCharsets.ISO_8859_1), closed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
