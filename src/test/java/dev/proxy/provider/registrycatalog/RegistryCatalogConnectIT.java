package dev.proxy.provider.registrycatalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.proxy.testing.consul.ConsulAgent;
import dev.proxy.testing.consul.RealConsul;
import dev.proxy.testing.consul.ServiceRegistration;
import io.micronaut.json.tree.JsonNode;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Connect: a connect-native backend serving with the leaf certificate it fetched from the agent and demanding a
 * client certificate from the Connect CA; the proxy reaches it over mTLS with its own leaf ({@code serviceName}
 * {@code proxy}) and checks the backend's SPIFFE ID.
 */
@RealConsul
class RegistryCatalogConnectIT {

    private final CatalogTestBed bed = new CatalogTestBed();

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void connectNativeBackendIsReachedOverMutualTls(ConsulAgent consul) throws Exception {
        String name = "cweb-" + bed.tag;
        int port = connectNativeBackend(consul, name);
        bed.run(bed.options(consul, "--connectAware=true"));

        bed.register(consul, ServiceRegistration.of(name, port).withConnectNative()
                .withTags("proxy.registrycatalog.connect=true"));

        // The backend answers with the identity of the client certificate it saw: the proxy's leaf.
        bed.awaitStatus(name, 200);
        assertThat(bed.get(name).body()).startsWith("spiffe://").endsWith("/ns/default/dc/dc1/svc/proxy");
    }

    @Test
    void backendPresentingAnotherServicesIdentityIsRefused(ConsulAgent consul) throws Exception {
        String name = "impostor-" + bed.tag;
        int port = connectNativeBackend(consul, "someone-else-" + bed.tag);
        String honest = "honest-" + bed.tag;
        int honestPort = connectNativeBackend(consul, honest);
        bed.run(bed.options(consul, "--connectAware=true", "--connectByDefault=true"));

        bed.register(consul, ServiceRegistration.of(honest, honestPort).withConnectNative());
        bed.register(consul, ServiceRegistration.of(name, port).withConnectNative());
        bed.awaitStatus(honest, 200);
        bed.awaitStatus(name, 502);
    }

    @Test
    void connectServiceIsSkippedWithoutConnectAware(ConsulAgent consul) throws Exception {
        String name = "cskip-" + bed.tag;
        int port = connectNativeBackend(consul, name);
        bed.register(consul, ServiceRegistration.of(name, port).withConnectNative()
                .withTags("proxy.registrycatalog.connect=true"));
        CatalogSource source = bed.source(bed.options(consul));

        assertThat(source.refresh().http().routers()).isEmpty();
        assertThat(source.explain()).filteredOn(e -> e.service().equals(name)).singleElement()
                .satisfies(e -> assertThat(e.reason()).contains("connectAware is false"));
    }

    /** An HTTPS backend with the Connect leaf of {@code identity}; it answers the client's SPIFFE ID. */
    private int connectNativeBackend(ConsulAgent consul, String identity) throws Exception {
        JsonNode leaf = consul.read("/v1/agent/connect/ca/leaf/" + identity);
        JsonNode roots = consul.read("/v1/agent/connect/ca/roots");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("leaf", Pem.privateKey(leaf.get("PrivateKeyPEM").getStringValue()), new char[0],
                Pem.certificates(leaf.get("CertPEM").getStringValue()).toArray(Certificate[]::new));
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        int i = 0;
        for (JsonNode root : roots.get("Roots").values()) {
            for (X509Certificate c : Pem.certificates(root.get("RootCert").getStringValue())) {
                trusted.setCertificateEntry("root-" + i++, c);
            }
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setNeedClientAuth(true);
                params.setSSLParameters(p);
            }
        });
        server.createContext("/", ex -> {
            X509Certificate client = (X509Certificate) ((HttpsExchange) ex).getSSLSession().getPeerCertificates()[0];
            List<String> uris = new ArrayList<>();
            try {
                uris = ConnectTls.SpiffeTrustManager.uris(client);
            } catch (Exception e) {
                uris.add("unreadable: " + e);
            }
            byte[] body = String.join(",", uris).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        server.start();
        bed.adopt(server);
        return server.getAddress().getPort();
    }
}
