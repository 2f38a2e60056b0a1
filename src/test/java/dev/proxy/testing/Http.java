package dev.proxy.testing;

import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/** A small HTTP/1.1 client for tests over loopback, with JSON bodies read into plain maps and lists. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private Http() {
    }

    public static HttpResponse<String> get(String url, String... headers) {
        return send("GET", url, headers);
    }

    public static HttpResponse<String> send(String method, String url, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The body as maps, lists, strings, numbers and booleans. */
    public static Object json(String body) {
        try {
            return ObjectMapper.getDefault().readValue(body, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(HttpResponse<String> r) {
        return (Map<String, Object>) json(r.body());
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> array(HttpResponse<String> r) {
        return (List<Map<String, Object>>) json(r.body());
    }
}
