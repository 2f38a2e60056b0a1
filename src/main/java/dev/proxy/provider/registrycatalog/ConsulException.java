package dev.proxy.provider.registrycatalog;

/**
 * A failed Consul call. The message names the call and the cause, never the token; for 403 it says which ACL
 * permissions the token needs.
 */
public class ConsulException extends RuntimeException {

    private final int status;

    public ConsulException(String message, int status) {
        super(message, null, false, false);
        this.status = status;
    }

    public ConsulException(String message, Throwable cause) {
        super(message, cause, false, false);
        this.status = 0;
    }

    /** The HTTP status, 0 when no answer came (unreachable, timeout, bad JSON). */
    public int status() {
        return status;
    }
}
