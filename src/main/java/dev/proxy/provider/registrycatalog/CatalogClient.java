package dev.proxy.provider.registrycatalog;

import java.util.List;
import java.util.Map;

/**
 * The Consul HTTP API calls the provider makes, and nothing else (no filtering, no decisions). Every call carries
 * the configured datacenter, namespace, consistency mode and token; an {@code index} above 0 makes the call a
 * blocking query that returns when the result's index passes it or the wait time ends.
 *
 * <p>Failures are {@link ConsulException}s whose messages never contain the token.
 */
public interface CatalogClient extends AutoCloseable {

    /** A result and the {@code X-Consul-Index} it was read at. */
    record Indexed<T>(long index, T value, boolean filteredByAcls) {
    }

    /** The Connect CA roots: the trust domain and every root certificate (PEM), the active one first. */
    record CaRoots(String trustDomain, List<String> rootCertificates) {
        public CaRoots {
            rootCertificates = List.copyOf(rootCertificates);
        }
    }

    /** A Connect leaf certificate (PEM, may include intermediates) and its private key (PEM). */
    record Leaf(String certificatePem, String privateKeyPem) {
        @Override
        public String toString() {
            return "Leaf[certificate, key ****]";
        }
    }

    /**
     * A check of {@code /v1/health/state/any}, reduced to what changes routing (not its output).
     *
     * @param serviceName the service of the instance it checks; empty for a node's own check
     */
    record CheckState(String node, String checkId, String serviceId, String serviceName, String status) {
    }

    /** {@code GET /v1/catalog/services}: service name → the union of its instances' tags. */
    Indexed<Map<String, List<String>>> services(long index);

    /**
     * {@code GET /v1/health/service/<name>} (or {@code /v1/health/connect/<name>} with {@code connect}): every
     * instance with its aggregated status.
     *
     * @param tag a server-side tag filter ({@code tag=}), or empty for none
     */
    Indexed<List<CatalogItem>> instances(String service, boolean connect, String tag);

    /** {@code GET /v1/health/state/any}: every check, to notice health changes while watching. */
    Indexed<List<CheckState>> checks(long index);

    /** {@code GET /v1/agent/connect/ca/roots}. */
    CaRoots connectRoots();

    /** {@code GET /v1/agent/connect/ca/leaf/<service>}: the proxy's own Connect identity. */
    Leaf connectLeaf(String service);

    /** {@code PUT /v1/agent/service/register} with a registration body (JSON-able maps and lists). */
    void register(Map<String, Object> registration);

    /** {@code PUT /v1/agent/service/deregister/<id>}. */
    void deregister(String serviceId);

    @Override
    void close();
}
