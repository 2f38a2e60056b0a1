package dev.proxy.api;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The list parameters Traefik's API users know: {@code search} (case-insensitive, in the name and, for routers, the
 * rule), {@code status} ({@code enabled}, {@code disabled}, {@code warning}), {@code serviceName} and
 * {@code middlewareName} (routers using them), {@code sortBy} ({@code name}, {@code provider}, {@code status}) with
 * {@code direction} ({@code asc}, {@code desc}), {@code page} (from 1) and {@code per_page} (default 100).
 *
 * <p>Like Traefik, the response header {@code X-Next-Page} holds the next page number, or 1 on the last page, and a
 * page past the end is a 400.
 */
record ListQuery(String search, String status, String serviceName, String middlewareName, String sortBy,
                 boolean descending, int page, int perPage) {

    static final int DEFAULT_PER_PAGE = 100;

    /** One page of a list and the number of the page after it (1 on the last). */
    record Page<T>(List<T> items, int nextPage) {
    }

    /** @throws IllegalArgumentException for a parameter that is not a positive number or not a known value */
    static ListQuery parse(Map<String, List<String>> params) {
        int page = positive(params, "page", 1);
        int perPage = positive(params, "per_page", DEFAULT_PER_PAGE);
        String sortBy = first(params, "sortBy").toLowerCase(Locale.ROOT);
        if (!sortBy.isEmpty() && !List.of("name", "provider", "status").contains(sortBy)) {
            throw new IllegalArgumentException("sortBy: expected name, provider or status");
        }
        String direction = first(params, "direction").toLowerCase(Locale.ROOT);
        if (!direction.isEmpty() && !direction.equals("asc") && !direction.equals("desc")) {
            throw new IllegalArgumentException("direction: expected asc or desc");
        }
        return new ListQuery(first(params, "search").toLowerCase(Locale.ROOT),
                first(params, "status").toLowerCase(Locale.ROOT), first(params, "serviceName"),
                first(params, "middlewareName"), sortBy, direction.equals("desc"), page, perPage);
    }

    /** Filters by search and status, sorts and cuts the requested page. */
    <T extends ApiJson.Listed> Page<T> apply(List<T> all, Function<T, String> alsoSearched) {
        Predicate<T> keep = item -> (search.isEmpty() || contains(item.name(), search)
                || contains(alsoSearched.apply(item), search))
                && (status.isEmpty() || item.status().equalsIgnoreCase(status));
        Comparator<T> order = switch (sortBy) {
            case "provider" -> Comparator.comparing((T t) -> t.provider()).thenComparing(ApiJson.Listed::name);
            case "status" -> Comparator.comparing((T t) -> t.status()).thenComparing(ApiJson.Listed::name);
            default -> Comparator.comparing(ApiJson.Listed::name);
        };
        List<T> matching = all.stream().filter(keep).sorted(descending ? order.reversed() : order).toList();
        int start = (page - 1) * perPage;
        if (start > 0 && start >= matching.size()) {
            throw new IllegalArgumentException("page " + page + " is past the end (per_page " + perPage + ", "
                    + matching.size() + " items)");
        }
        int end = Math.min(matching.size(), start + perPage);
        return new Page<>(matching.subList(start, end), end < matching.size() ? page + 1 : 1);
    }

    private static boolean contains(String text, String lowerNeedle) {
        return text != null && text.toLowerCase(Locale.ROOT).contains(lowerNeedle);
    }

    private static String first(Map<String, List<String>> params, String name) {
        List<String> v = params.get(name);
        return v == null || v.isEmpty() ? "" : v.get(0).trim();
    }

    private static int positive(Map<String, List<String>> params, String name, int fallback) {
        String v = first(params, name);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + ": expected a positive whole number, not \"" + v + "\"");
    }
}
