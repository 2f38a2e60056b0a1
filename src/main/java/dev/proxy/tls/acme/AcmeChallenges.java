package dev.proxy.tls.acme;

import dev.proxy.tls.ServerCertificate;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * The answers to ACME challenges in progress, shared by every resolver and read by the data plane: HTTP-01 key
 * authorizations by token (served under {@code /.well-known/acme-challenge/}) and TLS-ALPN-01 certificates by
 * domain (served to a ClientHello that offers {@code acme-tls/1}). Entries live from the moment a challenge
 * is triggered until it is decided.
 */
public final class AcmeChallenges {

    public static final String HTTP_PATH_PREFIX = "/.well-known/acme-challenge/";
    public static final String ACME_TLS_PROTOCOL = "acme-tls/1";

    private final Map<String, String> httpTokens = new ConcurrentHashMap<>();
    private final Map<String, SslContext> tlsAlpn = new ConcurrentHashMap<>();

    /** The key authorization for an HTTP-01 token, or null. */
    public String keyAuthorization(String token) {
        return httpTokens.get(token);
    }

    /** The TLS-ALPN-01 context for a domain, or null when no validation of it is pending. */
    public SslContext tlsAlpnContext(String domain) {
        return domain == null ? null : tlsAlpn.get(domain.toLowerCase(Locale.ROOT));
    }

    void addHttp(String token, String keyAuthorization) {
        httpTokens.put(token, keyAuthorization);
    }

    void removeHttp(String token) {
        httpTokens.remove(token);
    }

    void addTlsAlpn(String domain, ServerCertificate challengeCertificate) throws SSLException {
        SslContext context = SslContextBuilder.forServer(challengeCertificate.key(), challengeCertificate.chain())
                .sslProvider(SslProvider.JDK)
                .protocols("TLSv1.3", "TLSv1.2")
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.FATAL_ALERT,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.FATAL_ALERT, ACME_TLS_PROTOCOL))
                .build();
        tlsAlpn.put(domain.toLowerCase(Locale.ROOT), context);
    }

    void removeTlsAlpn(String domain) {
        tlsAlpn.remove(domain.toLowerCase(Locale.ROOT));
    }
}
