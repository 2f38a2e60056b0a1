package dev.proxy.server.balance;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a smooth weighted round robin (nginx's algorithm) visits members with the given weights,
 * computed once per configuration. Picking is then an atomic counter over this sequence: lock-free on the request
 * path, and weights interleave (5:1:1 gives a a b a c a a, not a a a a a b c).
 */
final class SmoothWeights {

    /** Upper bound of the sequence length; larger weight sums are scaled down proportionally. */
    static final int MAX_PERIOD = 1 << 16;

    private SmoothWeights() {
    }

    /** Member indexes in visiting order; empty when every weight is 0. */
    static int[] sequence(List<Integer> weights) {
        List<Integer> w = reduce(weights);
        int total = w.stream().mapToInt(Integer::intValue).sum();
        int[] seq = new int[total];
        int[] current = new int[w.size()];
        for (int step = 0; step < total; step++) {
            int best = -1;
            for (int i = 0; i < w.size(); i++) {
                if (w.get(i) == 0) {
                    continue;
                }
                current[i] += w.get(i);
                if (best < 0 || current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            seq[step] = best;
        }
        return seq;
    }

    /** Divides by the common divisor and scales down so that the period stays within {@link #MAX_PERIOD}. */
    private static List<Integer> reduce(List<Integer> weights) {
        int gcd = 0;
        long sum = 0;
        for (int x : weights) {
            gcd = gcd(gcd, x);
            sum += x;
        }
        List<Integer> out = new ArrayList<>(weights.size());
        if (gcd == 0) {
            weights.forEach(x -> out.add(0));
            return out;
        }
        double scale = sum / gcd > MAX_PERIOD ? (double) MAX_PERIOD / (sum / gcd) : 1.0;
        for (int x : weights) {
            int r = x / gcd;
            out.add(x == 0 ? 0 : Math.max(1, (int) Math.round(r * scale)));
        }
        return out;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
