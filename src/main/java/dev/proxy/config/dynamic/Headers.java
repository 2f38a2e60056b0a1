package dev.proxy.config.dynamic;

import dev.proxy.config.decode.InvalidValueException;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code headers}: custom request and response headers, and CORS.
 *
 * @param customRequestHeaders          set on the request before it is forwarded; an empty value removes the header
 * @param customResponseHeaders         set on the response; an empty value removes the header
 * @param accessControlAllowCredentials send {@code Access-Control-Allow-Credentials: true}
 * @param accessControlAllowHeaders     request headers a preflight allows
 * @param accessControlAllowMethods     methods a preflight allows
 * @param accessControlAllowOriginList  allowed origins ({@code *} for any)
 * @param accessControlAllowOriginListRegex allowed origins as RE2 regular expressions (matched in full)
 * @param accessControlExposeHeaders    response headers a page may read
 * @param accessControlMaxAge           seconds a preflight may be cached (default 0)
 * @param addVaryHeader                 add {@code Vary: Origin} when the allowed origin is echoed (default true)
 */
public record Headers(@Nullable Map<String, String> customRequestHeaders,
                      @Nullable Map<String, String> customResponseHeaders,
                      @Nullable Boolean accessControlAllowCredentials, @Nullable List<String> accessControlAllowHeaders,
                      @Nullable List<String> accessControlAllowMethods, @Nullable List<String> accessControlAllowOriginList,
                      @Nullable List<String> accessControlAllowOriginListRegex,
                      @Nullable List<String> accessControlExposeHeaders, @Nullable Long accessControlMaxAge,
                      @Nullable Boolean addVaryHeader) {

    public Headers {
        customRequestHeaders = headerMap("customRequestHeaders", customRequestHeaders);
        customResponseHeaders = headerMap("customResponseHeaders", customResponseHeaders);
        accessControlAllowCredentials = accessControlAllowCredentials != null && accessControlAllowCredentials;
        accessControlAllowHeaders = tokens("accessControlAllowHeaders", accessControlAllowHeaders, false);
        accessControlAllowMethods = tokens("accessControlAllowMethods", accessControlAllowMethods, true);
        accessControlAllowOriginList = values("accessControlAllowOriginList", accessControlAllowOriginList);
        accessControlAllowOriginListRegex = accessControlAllowOriginListRegex == null ? List.of()
                : List.copyOf(accessControlAllowOriginListRegex);
        accessControlExposeHeaders = tokens("accessControlExposeHeaders", accessControlExposeHeaders, false);
        accessControlMaxAge = accessControlMaxAge == null ? 0L : accessControlMaxAge;
        if (accessControlMaxAge < 0) {
            throw new InvalidValueException("accessControlMaxAge", "must not be negative");
        }
        addVaryHeader = addVaryHeader == null || addVaryHeader;
    }

    /** Whether any CORS option is set (then preflight requests are answered by the proxy). */
    public boolean hasCors() {
        return accessControlAllowCredentials || !accessControlAllowHeaders.isEmpty()
                || !accessControlAllowMethods.isEmpty() || !accessControlAllowOriginList.isEmpty()
                || !accessControlAllowOriginListRegex.isEmpty() || !accessControlExposeHeaders.isEmpty()
                || accessControlMaxAge > 0;
    }

    private static Map<String, String> headerMap(String field, Map<String, String> in) {
        Map<String, String> out = new LinkedHashMap<>();
        if (in != null) {
            in.forEach((name, value) -> {
                HeaderSyntax.checkName(field + "." + name, name);
                String v = value == null ? "" : value.trim();
                HeaderSyntax.checkValue(field + "." + name, v);
                out.put(name, v);
            });
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<String> tokens(String field, List<String> in, boolean upper) {
        List<String> out = new ArrayList<>();
        for (String t : in == null ? List.<String>of() : in) {
            String v = t.trim();
            if (!v.equals("*")) {
                HeaderSyntax.checkName(field, v);
            }
            out.add(upper ? v.toUpperCase(Locale.ROOT) : v);
        }
        return List.copyOf(out);
    }

    private static List<String> values(String field, List<String> in) {
        List<String> out = new ArrayList<>();
        for (String v : in == null ? List.<String>of() : in) {
            HeaderSyntax.checkValue(field, v.trim());
            out.add(v.trim());
        }
        return List.copyOf(out);
    }
}
