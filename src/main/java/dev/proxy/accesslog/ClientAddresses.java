package dev.proxy.accesslog;

import java.net.InetAddress;

/**
 * Client addresses as text, remembering the last one: consecutive lines usually come from the same keep-alive
 * connection, whose records share one address object. One per writer thread.
 */
final class ClientAddresses {

    private InetAddress last;
    private String lastText = "-";

    String text(InetAddress address) {
        if (address == null) {
            return "-";
        }
        if (address != last) {
            last = address;
            lastText = address.getHostAddress();
        }
        return lastText;
    }
}
