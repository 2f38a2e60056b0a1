package dev.proxy.rules;

/** A compiled router rule: decides whether a request is for the router. Thread-safe; cheap per request. */
@FunctionalInterface
public interface RequestMatcher {

    /** True if the request matches. */
    boolean matches(RequestFacts request);
}
