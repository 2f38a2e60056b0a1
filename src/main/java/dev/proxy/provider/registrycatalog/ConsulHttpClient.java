package dev.proxy.provider.registrycatalog;

import dev.proxy.config.install.ClientTlsConfig;
import dev.proxy.config.install.RegistryCatalogConfig;
import dev.proxy.config.install.RegistryEndpointConfig;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.BlockingHttpClient;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.http.client.netty.DefaultHttpClient;
import io.micronaut.json.tree.JsonNode;
import io.micronaut.serde.ObjectMapper;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@link CatalogClient} on the Micronaut HTTP client (low level: the catalog needs blocking queries and the
 * {@code X-Consul-Index} header, which the discovery module's Consul client offers for KV only).
 *
 * <p>The token goes only into the {@code X-Consul-Token} header, never into a URL (URLs end up in logs and proxies'
 * access logs). The read timeout is longer than a blocking query's wait plus Consul's jitter (wait/16).
 */
public final class ConsulHttpClient implements CatalogClient {

    static final Duration DEFAULT_WAIT = Duration.ofMinutes(5);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SLACK = Duration.ofSeconds(10);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_BODY = 256 * 1024 * 1024;

    private final URI base;
    private final DefaultHttpClient http;
    private final DefaultHttpClient watchHttp;
    private final BlockingHttpClient blocking;
    private final BlockingHttpClient watching;
    private final String token;
    private final @Nullable String basicAuth;
    private final String datacenter;
    private final String namespace;
    private final String consistency;
    private final boolean cached;
    private final String waitParameter;

    /**
     * @param namespace  the Consul namespace to send as {@code ns}, or empty for none
     * @param env        reads {@code CONSUL_HTTP_ADDR} and {@code CONSUL_HTTP_TOKEN} when the options leave them empty
     */
    public ConsulHttpClient(RegistryCatalogConfig config, String namespace, UnaryOperator<String> env) {
        RegistryEndpointConfig endpoint = config.endpoint();
        this.base = baseUri(endpoint, env);
        String configured = endpoint.token().reveal();
        String fromEnv = env.apply("CONSUL_HTTP_TOKEN");
        this.token = !configured.isEmpty() ? configured : fromEnv == null ? "" : fromEnv.trim();
        this.basicAuth = endpoint.httpAuth() == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                (endpoint.httpAuth().username() + ":" + endpoint.httpAuth().password().reveal())
                        .getBytes(StandardCharsets.UTF_8));
        this.datacenter = endpoint.datacenter();
        this.namespace = namespace;
        // requireConsistent wins over stale (the configuration refuses both); cache is the agent's own cache.
        this.consistency = config.requireConsistent() ? "consistent" : config.stale() ? "stale" : "";
        boolean cached = config.cache();
        Duration wait = endpoint.endpointWaitTime().isZero() ? DEFAULT_WAIT : endpoint.endpointWaitTime();
        this.waitParameter = wait.toMillis() + "ms";

        SslContext ssl = sslContext(endpoint.tls());
        // Two clients: a blocking query may take the whole wait, any other call that long means a hung agent.
        this.http = new DefaultHttpClient(base, clientConfiguration(READ_TIMEOUT), (sslConfiguration, versions) -> ssl);
        this.watchHttp = new DefaultHttpClient(base, clientConfiguration(wait.plus(wait.dividedBy(16)).plus(SLACK)),
                (sslConfiguration, versions) -> ssl);
        this.blocking = this.http.toBlocking();
        this.watching = this.watchHttp.toBlocking();
        this.cached = cached;
    }

    /** Where the agent is, for logs (no credentials in it). */
    public URI address() {
        return base;
    }

    @Override
    public Indexed<Map<String, List<String>>> services(long index) {
        Response r = get("/v1/catalog/services", index, true, Map.of());
        Map<String, List<String>> services = new LinkedHashMap<>();
        requireObject(r.json(), "/v1/catalog/services").entries().forEach(e -> services.put(e.getKey(), strings(e.getValue())));
        return new Indexed<>(r.index(), services, r.filtered());
    }

    @Override
    public Indexed<List<CatalogItem>> instances(String service, boolean connect, String tag) {
        String path = (connect ? "/v1/health/connect/" : "/v1/health/service/") + encode(service);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("passing", "false");
        if (!tag.isEmpty()) {
            query.put("tag", tag);
        }
        Response r = get(path, 0, true, query);
        List<CatalogItem> items = new ArrayList<>();
        for (JsonNode entry : requireArray(r.json(), path).values()) {
            items.add(ConsulJson.item(service, entry, connect));
        }
        return new Indexed<>(r.index(), items, r.filtered());
    }

    @Override
    public Indexed<List<CheckState>> checks(long index) {
        Response r = get("/v1/health/state/any", index, true, Map.of());
        List<CheckState> checks = new ArrayList<>();
        for (JsonNode c : requireArray(r.json(), "/v1/health/state/any").values()) {
            checks.add(new CheckState(ConsulJson.text(c, "Node"), ConsulJson.text(c, "CheckID"),
                    ConsulJson.text(c, "ServiceID"), ConsulJson.text(c, "ServiceName"), ConsulJson.text(c, "Status")));
        }
        return new Indexed<>(r.index(), checks, r.filtered());
    }

    @Override
    public CaRoots connectRoots() {
        return ConsulJson.roots(get("/v1/agent/connect/ca/roots", 0, false, Map.of()).json());
    }

    @Override
    public Leaf connectLeaf(String service) {
        JsonNode leaf = get("/v1/agent/connect/ca/leaf/" + encode(service), 0, false, Map.of()).json();
        return new Leaf(ConsulJson.text(leaf, "CertPEM"), ConsulJson.text(leaf, "PrivateKeyPEM"));
    }

    @Override
    public void register(Map<String, Object> registration) {
        send(blocking, request(HttpRequest.PUT(uri("/v1/agent/service/register", 0, false, Map.of()), registration)),
                "PUT /v1/agent/service/register");
    }

    @Override
    public void deregister(String serviceId) {
        String path = "/v1/agent/service/deregister/" + encode(serviceId);
        send(blocking, request(HttpRequest.PUT(uri(path, 0, false, Map.of()), "")), "PUT " + path);
    }

    @Override
    public void close() {
        http.close();
        watchHttp.close();
    }

    private static DefaultHttpClientConfiguration clientConfiguration(Duration readTimeout) {
        DefaultHttpClientConfiguration c = new DefaultHttpClientConfiguration();
        c.setConnectTimeout(CONNECT_TIMEOUT);
        c.setReadTimeout(readTimeout);
        c.setFollowRedirects(false);
        c.setMaxContentLength(MAX_BODY);
        c.setExceptionOnErrorStatus(true);
        return c;
    }

    /** A parsed answer. */
    private record Response(JsonNode json, long index, boolean filtered) {
    }

    private Response get(String path, long index, boolean catalogOptions, Map<String, String> extra) {
        String call = "GET " + path;
        HttpResponse<byte[]> response = send(index != 0 ? watching : blocking,
                request(HttpRequest.GET(uri(path, index, catalogOptions, extra))), call);
        byte[] body = response.body();
        JsonNode json;
        try {
            json = ObjectMapper.getDefault().readValue(body == null ? new byte[0] : body, JsonNode.class);
        } catch (IOException | RuntimeException e) {
            throw new ConsulException(call + ": the answer is not JSON (" + e.getClass().getSimpleName() + ")", e);
        }
        if (json == null) {
            throw new ConsulException(call + ": empty answer", 0);
        }
        long consulIndex = consulIndex(call, response.getHeaders().get("X-Consul-Index"));
        boolean filtered = response.getHeaders().contains("X-Consul-Results-Filtered-By-ACLs");
        return new Response(json, consulIndex, filtered);
    }

    /**
     * The {@code X-Consul-Index} header: an unsigned 64-bit number (Consul's raft indexes are uint64, so values above
     * {@link Long#MAX_VALUE} are legal and kept as their two's-complement {@code long}); 0 when absent. Anything else
     * is a broken or hostile agent: the call fails rather than blocking on an index it never sent.
     */
    static long consulIndex(String call, @Nullable String header) {
        if (header == null || header.isBlank()) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(header.trim());
        } catch (NumberFormatException e) {
            throw new ConsulException(call + ": X-Consul-Index \"" + dev.proxy.config.label.LabelDecoder.shown(header, 40)
                    + "\" is not an unsigned 64-bit number", 0);
        }
    }

    private HttpResponse<byte[]> send(BlockingHttpClient client, MutableHttpRequest<?> request, String call) {
        try {
            return client.exchange(request, byte[].class);
        } catch (HttpClientResponseException e) {
            int status = e.getStatus().getCode();
            String body = e.getResponse().getBody(String.class).orElse("").trim();
            throw new ConsulException(message(call, status, body), status);
        } catch (RuntimeException e) {
            String cause = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new ConsulException(call + " to " + base + " failed: " + cause, e);
        }
    }

    static String message(String call, int status, String body) {
        String shown = body.length() > 300 ? body.substring(0, 300) + "…" : body;
        shown = shown.replaceAll("[\\r\\n]+", " ");
        if (status == 403) {
            return call + " answered 403 (" + shown + "): the ACL token (endpoint.token or CONSUL_HTTP_TOKEN) lacks "
                    + "read permission; it needs service:read and node:read on every service and node to route "
                    + "(policy: service_prefix \"\" { policy = \"read\" } node_prefix \"\" { policy = \"read\" })";
        }
        if (status == 401) {
            return call + " answered 401 (" + shown + "): check endpoint.httpAuth";
        }
        return call + " answered " + status + (shown.isEmpty() ? "" : " (" + shown + ")");
    }

    private MutableHttpRequest<?> request(MutableHttpRequest<?> request) {
        if (!token.isEmpty()) {
            request.header("X-Consul-Token", token);
        }
        if (basicAuth != null) {
            request.header("Authorization", basicAuth);
        }
        return request.accept("application/json");
    }

    private URI uri(String path, long index, boolean catalogOptions, Map<String, String> extra) {
        StringBuilder q = new StringBuilder();
        if (!datacenter.isEmpty() && catalogOptions) {
            param(q, "dc", datacenter);
        }
        if (!namespace.isEmpty()) {
            param(q, "ns", namespace);
        }
        if (catalogOptions && !consistency.isEmpty()) {
            q.append(q.isEmpty() ? "" : "&").append(consistency);
        }
        if (catalogOptions && cached && index == 0) {
            q.append(q.isEmpty() ? "" : "&").append("cached");
        }
        if (index != 0) {
            param(q, "index", Long.toUnsignedString(index));
            param(q, "wait", waitParameter);
        }
        extra.forEach((k, v) -> param(q, k, v));
        return base.resolve(path + (q.isEmpty() ? "" : "?" + q));
    }

    private static void param(StringBuilder q, String key, String value) {
        q.append(q.isEmpty() ? "" : "&").append(key).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static JsonNode requireObject(JsonNode json, String path) {
        if (!json.isObject()) {
            throw new ConsulException("GET " + path + ": expected a JSON object", 0);
        }
        return json;
    }

    private static JsonNode requireArray(JsonNode json, String path) {
        if (!json.isArray()) {
            throw new ConsulException("GET " + path + ": expected a JSON array", 0);
        }
        return json;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.values().forEach(v -> out.add(v.isString() ? v.getStringValue() : v.coerceStringValue()));
        }
        return out;
    }

    static URI baseUri(RegistryEndpointConfig endpoint, UnaryOperator<String> env) {
        String address = endpoint.address();
        if (address.isEmpty()) {
            String fromEnv = env.apply("CONSUL_HTTP_ADDR");
            address = fromEnv == null || fromEnv.isBlank() ? RegistryEndpointConfig.DEFAULT_ADDRESS : fromEnv.trim();
        }
        String scheme = endpoint.scheme();
        int sep = address.indexOf("://");
        if (sep > 0) {
            if (scheme.isEmpty()) {
                scheme = address.substring(0, sep).toLowerCase(java.util.Locale.ROOT);
            }
            address = address.substring(sep + 3);
        }
        if (scheme.isEmpty()) {
            scheme = endpoint.tls() != null ? "https" : "http";
        }
        if (address.endsWith("/")) {
            address = address.substring(0, address.length() - 1);
        }
        try {
            URI uri = new URI(scheme + "://" + address + "/");
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("providers.registryCatalog.endpoint.address \"" + address
                        + "\" is not host:port");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("providers.registryCatalog.endpoint.address \"" + address
                    + "\" is not host:port", e);
        }
    }

    private static SslContext sslContext(@Nullable ClientTlsConfig tls) {
        try {
            SslContextBuilder b = SslContextBuilder.forClient();
            if (tls != null) {
                if (tls.insecureSkipVerify()) {
                    b.trustManager(InsecureTrustManagerFactory.INSTANCE);
                } else if (tls.ca() != null) {
                    b.trustManager(Pem.certificates(Files.readString(Path.of(tls.ca()))));
                }
                if (tls.cert() != null && tls.key() != null) {
                    b.keyManager(Pem.privateKey(Files.readString(Path.of(tls.key()))),
                            Pem.certificates(Files.readString(Path.of(tls.cert()))));
                }
            }
            return b.build();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("providers.registryCatalog.endpoint.tls: cannot read the CA, "
                    + "certificate or key: " + e.getMessage(), e);
        }
    }
}
