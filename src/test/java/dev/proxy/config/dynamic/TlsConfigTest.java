package dev.proxy.config.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.proxy.config.decode.ConfigException;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.decode.Secret;
import dev.proxy.config.decode.YamlEntries;
import dev.proxy.config.dynamic.ResourceError.Kind;
import dev.proxy.config.label.LabelDecoder;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code tls} section and router TLS: decoding with defaults, refused values, labels, merging. */
class TlsConfigTest {

    private static DynamicConfig yaml(String text) {
        return RecordDecoder.decode(DynamicConfig.class, YamlEntries.read(new StringReader(text), "dynamic.yml"));
    }

    @Test
    void decodesTheWholeTlsSectionWithDefaults() {
        DynamicConfig c = yaml("""
                http:
                  routers:
                    web:
                      rule: "Host(`a.example.com`)"
                      service: app
                      tls:
                        certResolver: le
                        options: strict
                        domains: [{main: A.example.com, sans: [www.a.example.com]}]
                tls:
                  certificates:
                    - {certFile: /etc/certs/a.crt, keyFile: /etc/certs/a.key}
                  options:
                    default: {}
                    strict:
                      minVersion: VersionTLS13
                      cipherSuites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]
                      curvePreferences: [CurveP256, X25519]
                      clientAuth: {caFiles: [/etc/ca.pem], clientAuthType: RequireAndVerifyClientCert}
                      sniStrict: true
                      alpnProtocols: [http/1.1]
                  stores:
                    default:
                      defaultCertificate: {certFile: /etc/certs/d.crt, keyFile: /etc/certs/d.key}
                """);
        assertThat(c.http().routers().get("web").tls()).isEqualTo(new RouterTls("le", "strict",
                List.of(new Domain("a.example.com", List.of("www.a.example.com")))));
        Map<String, TlsOptions> options = new LinkedHashMap<>();
        options.put("default", new TlsOptions(TlsVersion.VersionTLS12, null, List.of(), List.of(), ClientAuth.NONE,
                false, List.of("h2", "http/1.1", "acme-tls/1")));
        options.put("strict", new TlsOptions(TlsVersion.VersionTLS13, null,
                List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"), List.of("CurveP256", "X25519"),
                new ClientAuth(List.of("/etc/ca.pem"), ClientAuthType.RequireAndVerifyClientCert), true,
                List.of("http/1.1")));
        assertThat(c.tls()).isEqualTo(new TlsConfig(
                List.of(new TlsCertificate("/etc/certs/a.crt", new Secret("/etc/certs/a.key"), List.of("default"))),
                options,
                Map.of("default", new TlsStore(new StoreCertificate("/etc/certs/d.crt", new Secret("/etc/certs/d.key"))))));
    }

    @Test
    void clientAuthWithCaFilesVerifiesCertificatesGivenByDefault() {
        assertThat(new ClientAuth(List.of("ca.pem"), null).clientAuthType()).isEqualTo(ClientAuthType.VerifyClientCertIfGiven);
        assertThat(new ClientAuth(null, null).clientAuthType()).isEqualTo(ClientAuthType.NoClientCert);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            TLS 1.1 minimum | options: {o: {minVersion: VersionTLS11}} | file dynamic.yml line 2: tls.options.o.minVersion=VersionTLS11: TLS 1.0 and 1.1 are deprecated (RFC 8996) and not offered; use VersionTLS12 or VersionTLS13
            TLS 1.0 maximum | options: {o: {maxVersion: VersionTLS10}} | file dynamic.yml line 2: tls.options.o.maxVersion=VersionTLS10: TLS 1.0 and 1.1 are deprecated (RFC 8996) and not offered; use VersionTLS12 or VersionTLS13
            max below min | options: {o: {minVersion: VersionTLS13, maxVersion: VersionTLS12}} | file dynamic.yml line 2: tls.options.o.maxVersion=VersionTLS12: is lower than minVersion VersionTLS13
            unknown version | options: {o: {minVersion: TLS12}} | file dynamic.yml line 2: tls.options.o.minVersion=TLS12: expected one of [versiontls10, versiontls11, versiontls12, versiontls13]
            verify without CA | options: {o: {clientAuth: {clientAuthType: RequireAndVerifyClientCert}}} | file dynamic.yml line 2: tls.options.o.clientAuth.clientAuthType=RequireAndVerifyClientCert: RequireAndVerifyClientCert needs caFiles to verify client certificates against
            unknown curve | options: {o: {curvePreferences: [P256]}} | file dynamic.yml line 2: tls.options.o.curvePreferences=P256: unknown curve "P256"; expected CurveP256, CurveP384, CurveP521 or X25519
            certificate without key | certificates: [{certFile: a.crt}] | file dynamic.yml line 2: tls.certificates[0].certFile: keyFile: a certificate needs keyFile (a PEM file or PEM content)
            another store | stores: {other: {}} | file dynamic.yml line 2: tls.stores.other={}: only the "default" store exists, not "other"
            """)
    void refusesValuesThatCannotBeHonoured(String description, String tls, String message) {
        assertThatThrownBy(() -> yaml("tls:\n  " + tls + "\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }

    @Test
    void labelsSetRouterTlsOptionsAndDomains() {
        DynamicConfig c = LabelDecoder.decode(Map.of(
                "proxy.http.routers.web.rule", "Host(`a.example.com`)",
                "proxy.http.routers.web.tls.certresolver", "le",
                "proxy.http.routers.web.tls.options", "strict@file",
                "proxy.http.routers.web.tls.domains[0].main", "a.example.com",
                "proxy.http.routers.web.tls.domains[0].sans", "b.example.com,c.example.com"), "proxy", "test label");
        assertThat(c.http().routers().get("web").tls()).isEqualTo(new RouterTls("le", "strict@file",
                List.of(new Domain("a.example.com", List.of("b.example.com", "c.example.com")))));
    }

    // --- merging ---

    private static DynamicConfig tls(List<TlsCertificate> certificates, Map<String, TlsOptions> options,
                                     Map<String, TlsStore> stores, Map<String, Router> routers) {
        return new DynamicConfig(new HttpConfig(routers, null, null), new TlsConfig(certificates, options, stores));
    }

    private static Router tlsRouter(String options) {
        return new Router(null, null, "app", "Host(`a.example.com`)", null, new RouterTls(null, options));
    }

    private static final TlsOptions TLS13 = new TlsOptions(TlsVersion.VersionTLS13, null, null, null, null, null, null);
    private static final TlsCertificate A = new TlsCertificate("a.crt", "a.key");
    private static final TlsCertificate B = new TlsCertificate("b.crt", "b.key");

    @Test
    void mergingQualifiesOptionNamesExceptDefaultAndUnitesCertificates() {
        Map<String, DynamicConfig> byProvider = new TreeMap<>();
        byProvider.put("file", tls(List.of(A, B), Map.of("strict", TLS13, "default", TlsOptions.DEFAULT), Map.of(),
                Map.of("own", tlsRouter("strict"), "global", tlsRouter("default"), "none", tlsRouter(null))));
        byProvider.put("registrycatalog", tls(List.of(B), Map.of(), Map.of(),
                Map.of("cross", tlsRouter("strict@file"), "local", tlsRouter("strict"))));
        MergedConfig merged = ConfigurationMerger.merge(byProvider);
        assertThat(merged.tls()).isEqualTo(new TlsConfig(List.of(A, B),
                Map.of("default", TlsOptions.DEFAULT, "strict@file", TLS13), Map.of()));
        assertThat(merged.routers()).extractingFromEntries(e -> e.getKey() + " " + e.getValue().tls().options())
                .containsExactly("cross@registrycatalog strict@file", "global@file default", "local@registrycatalog strict@registrycatalog",
                        "none@file null", "own@file strict@file");
        assertThat(merged.errors()).isEmpty();
    }

    @Test
    void defaultOptionsOrStoreDefinedByTwoProvidersAreDroppedWithAnError() {
        TlsStore store = new TlsStore(new StoreCertificate("d.crt", new Secret("d.key")));
        Map<String, DynamicConfig> byProvider = new TreeMap<>();
        byProvider.put("file", tls(List.of(), Map.of("default", TLS13), Map.of("default", store), Map.of()));
        byProvider.put("clustertasks", tls(List.of(), Map.of("default", TlsOptions.DEFAULT), Map.of("default", store),
                Map.of()));
        MergedConfig merged = ConfigurationMerger.merge(byProvider);
        assertThat(merged.tls()).isEqualTo(TlsConfig.EMPTY);
        assertThat(merged.errors()).containsExactly(
                new ResourceError(Kind.TLS_OPTIONS, "default",
                        "defined by several providers (clustertasks, file); every definition is ignored"),
                new ResourceError(Kind.TLS_STORE, "default",
                        "defined by several providers (clustertasks, file); every definition is ignored"));
        assertThat(merged.errors().get(0)).hasToString(
                "tls options default: defined by several providers (clustertasks, file); every definition is ignored");
    }
}
