package dev.proxy.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The request meters of one scope (an entry point, a router or a service): a duration histogram and a request
 * counter per status code and method. Meters are created on the first request of each combination and cached, so a
 * request costs two map lookups and one timer update — no tags are built on the hot path. The counter reads the
 * timer's count instead of counting again.
 */
final class RequestMeters {

    /** Methods get their own label value; anything else is {@code EXTENSION_METHOD}, which bounds the series. */
    private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
            "CONNECT", "TRACE", "EXTENSION_METHOD");
    private static final int OTHER_METHOD = METHODS.size() - 1;

    private final MeterRegistry registry;
    private final String prefix;
    private final Tags scope;
    private final Duration[] buckets;
    private final Map<Integer, Timer> timers = new ConcurrentHashMap<>();

    /**
     * @param prefix  meter name prefix, {@code proxy.entrypoint} gives {@code proxy_entrypoint_requests_total}
     * @param scope   the scope's tags, e.g. {@code entrypoint=web}
     * @param buckets histogram bucket bounds
     */
    RequestMeters(MeterRegistry registry, String prefix, Tags scope, Duration[] buckets) {
        this.registry = registry;
        this.prefix = prefix;
        this.scope = scope;
        this.buckets = buckets;
    }

    void record(int status, String method, long nanos) {
        int m = methodIndex(method);
        int key = status << 4 | m;
        Timer t = timers.get(key);
        if (t == null) {
            t = timers.computeIfAbsent(key, k -> register(status, METHODS.get(m)));
        }
        t.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer register(int status, String method) {
        Tags tags = scope.and("code", String.valueOf(status), "method", method);
        Timer timer = Timer.builder(prefix + ".request.duration")
                .description("Request durations")
                .tags(tags)
                .serviceLevelObjectives(buckets)
                .register(registry);
        FunctionCounter.builder(prefix + ".requests", timer, Timer::count)
                .description("Requests")
                .tags(tags)
                .register(registry);
        return timer;
    }

    /** Removes this scope's meters (its router or service left the configuration). */
    void remove() {
        timers.values().forEach(t -> {
            registry.remove(t);
            registry.find(prefix + ".requests").tags(t.getId().getTags()).meters().forEach(registry::remove);
        });
        timers.clear();
    }

    static int methodIndex(String method) {
        // Compared by identity first: Netty hands out the same constant strings for standard methods.
        for (int i = 0; i < OTHER_METHOD; i++) {
            String known = METHODS.get(i);
            if (known == method || known.equals(method)) {
                return i;
            }
        }
        return OTHER_METHOD;
    }
}
