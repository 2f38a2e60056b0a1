package dev.proxy.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Prometheus text exposition parsed into samples, for assertions. */
record Scrape(List<Sample> samples) {

    /** One sample line: metric name, labels, value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    static Scrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                throw new AssertionError("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return new Scrape(samples);
    }

    /** The value of the one sample with this name and (at least) these labels; null when there is none. */
    Double value(String name, String... labelPairs) {
        List<Sample> found = find(name, labelPairs);
        if (found.size() > 1) {
            throw new AssertionError("several samples match " + name + " " + List.of(labelPairs) + ": " + found);
        }
        return found.isEmpty() ? null : found.get(0).value();
    }

    List<Sample> find(String name, String... labelPairs) {
        return samples.stream().filter(s -> s.name().equals(name)).filter(s -> {
            for (int i = 0; i < labelPairs.length; i += 2) {
                if (!labelPairs[i + 1].equals(s.labels().get(labelPairs[i]))) {
                    return false;
                }
            }
            return true;
        }).toList();
    }
}
