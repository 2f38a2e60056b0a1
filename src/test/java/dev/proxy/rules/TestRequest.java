package dev.proxy.rules;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request for matcher tests, built with withers: {@code request().host("a.test").header("X-A", "1")}.
 * Headers are looked up case-insensitively, as the data plane does.
 */
record TestRequest(String host, String path, String method, Map<String, List<String>> headers,
                   Map<String, List<String>> query, InetAddress clientAddress) implements RequestFacts {

    static TestRequest request() {
        return new TestRequest("", "/", "GET", Map.of(), Map.of(), ip("127.0.0.1"));
    }

    TestRequest host(String host) {
        return new TestRequest(host, path, method, headers, query, clientAddress);
    }

    TestRequest path(String path) {
        return new TestRequest(host, path, method, headers, query, clientAddress);
    }

    TestRequest method(String method) {
        return new TestRequest(host, path, method, headers, query, clientAddress);
    }

    TestRequest header(String name, String... values) {
        Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        copy.putAll(headers);
        copy.put(name, List.of(values));
        return new TestRequest(host, path, method, copy, query, clientAddress);
    }

    /** {@code query("k", "")} is {@code ?k}; {@code query("k", "1", "2")} is {@code ?k=1&k=2}. */
    TestRequest query(String name, String... values) {
        Map<String, List<String>> copy = new TreeMap<>(query);
        copy.put(name, Arrays.asList(values));
        return new TestRequest(host, path, method, headers, copy, clientAddress);
    }

    TestRequest client(String literal) {
        return new TestRequest(host, path, method, headers, query, ip(literal));
    }

    TestRequest client(InetAddress address) {
        return new TestRequest(host, path, method, headers, query, address);
    }

    @Override
    public List<String> headerValues(String name) {
        return headers.getOrDefault(name, List.of());
    }

    @Override
    public List<String> queryValues(String name) {
        return query.get(name);
    }

    /** An address from a literal (never a DNS lookup: only IP literals are passed here). */
    static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    @Override
    public String toString() {
        return method + " " + host + path + " " + headers + " " + query + " from " + clientAddress;
    }
}
