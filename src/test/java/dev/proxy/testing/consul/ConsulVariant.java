package dev.proxy.testing.consul;

import java.util.ArrayList;
import java.util.List;

/**
 * Which kind of Consul agent a test needs: ACLs on (default deny, a management and a read-only token)
 * and/or an HTTPS listener that demands a client certificate. Connect is on in every variant.
 */
public record ConsulVariant(boolean acl, boolean tls) {

    public static final ConsulVariant PLAIN = new ConsulVariant(false, false);
    public static final ConsulVariant ACL = new ConsulVariant(true, false);
    public static final ConsulVariant TLS = new ConsulVariant(false, true);

    /** A short name for work directories and test reports: {@code plain}, {@code acl}, {@code tls}, {@code acl-tls}. */
    public String label() {
        if (!acl && !tls) {
            return "plain";
        }
        return acl && tls ? "acl-tls" : acl ? "acl" : "tls";
    }

    /** The flags {@code agent.sh start} takes for this variant. */
    List<String> scriptFlags() {
        List<String> flags = new ArrayList<>();
        if (acl) {
            flags.add("--acl");
        }
        if (tls) {
            flags.add("--tls");
        }
        return flags;
    }

    @Override
    public String toString() {
        return label();
    }
}
