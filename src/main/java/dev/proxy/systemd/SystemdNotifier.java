package dev.proxy.systemd;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.newsclub.net.unix.AFUNIXDatagramChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * Sends service state to systemd, as {@code sd_notify(3)} does: one datagram per state change to the Unix socket
 * named by {@code NOTIFY_SOCKET} (a path, or {@code @name} in the abstract namespace). The JDK has Unix-domain
 * stream sockets only, so the datagram socket comes from junixsocket, whose native library is loaded only here,
 * i.e. only when systemd asked for notifications.
 */
public final class SystemdNotifier implements Closeable {

    public static final String NOTIFY_SOCKET = "NOTIFY_SOCKET";

    private final String socketName;
    private final SocketAddress address;
    private final AFUNIXDatagramChannel channel;

    SystemdNotifier(String socketName) throws IOException {
        this.socketName = socketName;
        this.address = socketName.startsWith("@")
                ? AFUNIXSocketAddress.inAbstractNamespace(socketName.substring(1))
                : AFUNIXSocketAddress.of(Path.of(socketName));
        this.channel = AFUNIXDatagramChannel.open();
    }

    /** The notifier for {@code NOTIFY_SOCKET}, or empty when the variable is unset or blank (not run by systemd). */
    public static Optional<SystemdNotifier> fromEnvironment(Map<String, String> env) throws IOException {
        String socket = env.get(NOTIFY_SOCKET);
        if (socket == null || socket.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new SystemdNotifier(socket));
    }

    /** Sends one state message, e.g. {@code READY=1}; several assignments are separated by newlines. */
    public void send(String state) throws IOException {
        ByteBuffer datagram = ByteBuffer.wrap(state.getBytes(StandardCharsets.UTF_8));
        int sent = channel.send(datagram, address);
        if (sent == 0) {
            throw new IOException("notify socket " + socketName + " did not accept " + state);
        }
    }

    public String socketName() {
        return socketName;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
