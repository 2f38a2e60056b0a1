package dev.proxy.ping;

import dev.proxy.config.install.InstallConfig;
import dev.proxy.config.install.PingConfig;
import io.micronaut.management.endpoint.annotation.Endpoint;
import io.micronaut.management.endpoint.annotation.Read;
import jakarta.inject.Singleton;

/**
 * The state behind {@code /ping}: 200 while running, {@code ping.terminatingStatusCode} from the first termination
 * signal until the process exits. A Micronaut Management endpoint (id {@code ping}); the entry points serve it as the
 * internal service {@code ping@internal}, on whichever entry point and path the routing gives it.
 */
@Singleton
@Endpoint(id = "ping", defaultSensitive = false)
public class PingEndpoint {

    private final int terminatingStatusCode;
    private volatile boolean terminating;

    public PingEndpoint(InstallConfig config) {
        PingConfig ping = config.ping();
        this.terminatingStatusCode = ping == null ? PingConfig.DEFAULT_TERMINATING_STATUS_CODE : ping.terminatingStatusCode();
    }

    /** The status {@code /ping} answers now. */
    @Read
    public int status() {
        return terminating ? terminatingStatusCode : 200;
    }

    /** Called once when graceful shutdown begins; from then on ping answers the terminating status. */
    public void startTerminating() {
        terminating = true;
    }

    public boolean isTerminating() {
        return terminating;
    }
}
