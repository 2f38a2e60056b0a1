package dev.proxy.config.install;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.List;

/**
 * {@code providers.registryCatalog.selfRegistration}: the proxy registers itself in Consul while it runs (off unless
 * the section is present).
 *
 * @param name          service name; default the provider's {@code serviceName} ({@code proxy})
 * @param id            instance id; default {@code <name>-<host name>-<port>}
 * @param address       address to advertise; default empty (Consul uses the node's address)
 * @param port          port to advertise (the entry point clients use); required
 * @param tags          tags of the registration
 * @param checkUrl      URL of Consul's HTTP check; default {@code http://<address or 127.0.0.1>:<ping port>/ping} when
 *                      ping is enabled, otherwise no check
 * @param checkInterval check interval (default 10s)
 * @param connect       register as a Connect-native service, so that Consul knows the proxy's Connect identity
 */
public record SelfRegistrationConfig(@Nullable String name, @Nullable String id, @Nullable String address,
                                     @Nullable Integer port, @Nullable List<String> tags, @Nullable String checkUrl,
                                     @Nullable Duration checkInterval, @Nullable Boolean connect) {

    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);

    public SelfRegistrationConfig {
        name = name == null ? "" : name.trim();
        id = id == null ? "" : id.trim();
        address = address == null ? "" : address.trim();
        if (port == null || port < 1 || port > 65535) {
            throw new InvalidValueException("port", "selfRegistration needs the port to advertise (1-65535)");
        }
        tags = tags == null ? List.of() : List.copyOf(tags);
        checkUrl = checkUrl == null ? "" : checkUrl.trim();
        checkInterval = checkInterval == null ? DEFAULT_CHECK_INTERVAL : checkInterval;
        if (checkInterval.isNegative() || checkInterval.isZero()) {
            throw new InvalidValueException("checkInterval", "must be positive");
        }
        connect = connect != null && connect;
    }
}
