package dev.proxy.config.dynamic;

import io.micronaut.core.annotation.Nullable;

/** {@code sticky}: sticky sessions; {@code sticky: {cookie: {}}} enables them with defaults. */
public record Sticky(@Nullable StickyCookie cookie) {
}
