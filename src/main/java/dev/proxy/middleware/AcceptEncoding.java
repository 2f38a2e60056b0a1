package dev.proxy.middleware;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code Accept-Encoding} negotiation (RFC 9110 §12.5.3): the client's q-values rank, our order breaks ties. */
final class AcceptEncoding {

    private AcceptEncoding() {
    }

    /**
     * The encoding to use, or null for none.
     *
     * @param headers  the request's Accept-Encoding values (empty when absent)
     * @param offered  our encodings in order of preference
     * @param fallback used when the request has no Accept-Encoding at all (empty for none)
     */
    static String choose(List<String> headers, List<String> offered, String fallback) {
        if (headers.isEmpty()) {
            return fallback.isEmpty() ? null : fallback;
        }
        Map<String, Double> q = new HashMap<>();
        for (String header : headers) {
            for (String item : header.split(",")) {
                String[] parts = item.split(";");
                String coding = parts[0].trim().toLowerCase(Locale.ROOT);
                if (coding.isEmpty()) {
                    continue;
                }
                double weight = 1;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i].trim();
                    if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
                        weight = parseQ(p.substring(2).trim());
                    }
                }
                q.merge(coding, weight, Math::max);
            }
        }
        String best = null;
        double bestQ = 0;
        for (String e : offered) {
            double w = q.containsKey(e) ? q.get(e) : q.getOrDefault("*", 0d);
            if (w > bestQ) { // strictly greater: on a tie the earlier offered encoding stays
                best = e;
                bestQ = w;
            }
        }
        return best;
    }

    /** A q-value 0 to 1 with up to three decimals; anything else counts as 0 (not acceptable). */
    private static double parseQ(String s) {
        if (!s.matches("0(\\.\\d{0,3})?|1(\\.0{0,3})?")) {
            return 0;
        }
        return Double.parseDouble(s);
    }
}
