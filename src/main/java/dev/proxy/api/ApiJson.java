package dev.proxy.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;
import java.util.Map;

/**
 * The API's JSON shapes, one record each, shaped like Traefik's API so that its users and tools find the fields they
 * know. Only what is listed here is ever written: configuration records are never serialised by reflection, so a
 * secret added to one cannot leak through the API (options of middlewares and providers go through
 * {@link dev.proxy.config.decode.ConfigTree}, which masks secrets).
 */
final class ApiJson {

    private ApiJson() {
    }

    /** Resource states, as Traefik names them. */
    static final String ENABLED = "enabled";
    static final String DISABLED = "disabled";
    static final String WARNING = "warning";

    /** Anything with a name, a status and a provider, for listing, searching and paging. */
    interface Listed {
        String name();

        String status();

        String provider();
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record EntryPoint(String name, String address, @Nullable Integer port, Map<String, Object> transport,
                      Map<String, Object> forwardedHeaders, Map<String, Object> http, Map<String, Object> http2) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Router(String name, String provider, String status, @Nullable List<String> error,
                  @Nullable List<String> entryPoints, @Nullable List<String> middlewares, @Nullable String service,
                  @Nullable String rule, @Nullable Long priority, @Nullable List<String> using,
                  @Nullable Map<String, Object> tls) implements Listed {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Service(String name, String provider, String status, @Nullable List<String> error, String type,
                   @Nullable Map<String, Object> loadBalancer, @Nullable Map<String, Object> weighted,
                   @Nullable Map<String, String> serverStatus, List<String> usedBy) implements Listed {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Middleware(String name, String provider, String status, @Nullable List<String> error, String type,
                      Map<String, Object> config, List<String> usedBy) implements Listed {
    }

    /** Counts for the overview: all, disabled ({@code errors}) and with warnings. */
    @Serdeable
    record Counts(int total, int warnings, int errors) {
    }

    @Serdeable
    record HttpOverview(Counts routers, Counts services, Counts middlewares) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Features(String tracing, String metrics, boolean accessLog) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Overview(HttpOverview http, Features features, List<String> providers,
                    @Nullable String lastConfigurationReload, long configurationReloads) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Version(@JsonProperty("Version") String version, @JsonProperty("Codename") String codename,
                   String startDate, String java) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record RawData(Map<String, Router> routers, Map<String, Service> services, Map<String, Middleware> middlewares) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Provider(String name, String status, long refreshes, long failures, double refreshSeconds,
                    @Nullable String lastSuccessfulRefresh, @Nullable String lastFailure, @Nullable String lastError,
                    @Nullable String lastPublished, int routers, int services, int middlewares, boolean explainable,
                    @Nullable Map<String, Object> config) implements Listed {
        @Override
        public String provider() {
            return name;
        }
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ExplainedItem(String item, boolean exposed, String reason, List<String> routers) implements Listed {
        @Override
        public String name() {
            return item;
        }

        @Override
        public String status() {
            return exposed ? "exposed" : "skipped";
        }

        @Override
        public String provider() {
            return "";
        }
    }

    @Serdeable
    record Message(String message) {
    }
}
