package dev.proxy.config.label;

import dev.proxy.config.dynamic.DynamicConfig;

/**
 * One item's configuration (after {@link ItemDefaults}) and where it came from, as input to {@link ItemMerger}.
 *
 * @param origin names the item in problems, e.g. {@code consul service web-1 on node n1}
 */
public record ItemConfig(String origin, DynamicConfig config) {
}
