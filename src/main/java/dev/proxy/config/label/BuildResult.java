package dev.proxy.config.label;

import dev.proxy.config.dynamic.DynamicConfig;
import java.util.List;

/** A configuration built from labels, and the resources that had to be left out of it. */
public record BuildResult(DynamicConfig config, List<Problem> problems) {

    public BuildResult {
        problems = List.copyOf(problems);
    }
}
