package dev.proxy.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.newsclub.net.unix.AFUNIXDatagramSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * Plays systemd's side of {@code sd_notify}: a Unix datagram socket bound by the test that collects every message
 * it receives. Pass {@link #name()} as {@code NOTIFY_SOCKET}.
 */
public final class NotifySocket implements AutoCloseable {

    private final String name;
    private final AFUNIXDatagramSocket socket;
    private final List<String> messages = new CopyOnWriteArrayList<>();

    private NotifySocket(String name, AFUNIXSocketAddress address) throws IOException {
        this.name = name;
        this.socket = AFUNIXDatagramSocket.newInstance();
        socket.bind(address);
        Thread reader = new Thread(this::receive, "notify-socket " + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** A socket in the abstract namespace ({@code NOTIFY_SOCKET=@name}), as systemd itself uses. */
    public static NotifySocket inAbstractNamespace() {
        String id = "proxy-test-" + UUID.randomUUID();
        try {
            return new NotifySocket("@" + id, AFUNIXSocketAddress.inAbstractNamespace(id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A socket file at {@code path}. */
    public static NotifySocket at(Path path) {
        try {
            return new NotifySocket(path.toString(), AFUNIXSocketAddress.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value for {@code NOTIFY_SOCKET}. */
    public String name() {
        return name;
    }

    /** Every message received so far, in order. */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    private void receive() {
        byte[] buffer = new byte[4096];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
            } catch (SocketException e) {
                return; // closed
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            messages.add(new String(packet.getData(), packet.getOffset(), packet.getLength(), StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
