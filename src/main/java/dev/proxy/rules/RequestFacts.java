package dev.proxy.rules;

import io.micronaut.core.annotation.Nullable;
import java.net.InetAddress;
import java.util.List;

/**
 * The parts of an HTTP request that rules look at, as the data plane provides them.
 *
 * <p>Implementations may compute each part lazily (for example decode the query only when a {@code Query}
 * matcher asks); a rule reads only what its matchers need, possibly several times per request.
 */
public interface RequestFacts {

    /** The request host: lower case, without port, possibly with a trailing dot; {@code ""} if none. */
    String host();

    /** The normalised routing path (starts with {@code /}). */
    String path();

    /** The method, upper case. */
    String method();

    /** Every value of the header {@code name} (looked up case-insensitively), in order; empty if absent. */
    List<String> headerValues(String name);

    /**
     * Every decoded value of the query parameter {@code name}, in order; {@code ""} for {@code ?k} and
     * {@code ?k=}; {@code null} if the parameter is absent.
     */
    @Nullable
    List<String> queryValues(String name);

    /** The socket peer address (never a forwarded header), or {@code null} if there is none (a Unix socket). */
    @Nullable
    InetAddress clientAddress();
}
