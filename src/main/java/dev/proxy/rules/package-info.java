/**
 * Router rules and provider constraints in Traefik v3 syntax: {@link dev.proxy.rules.RuleParser} parses them into
 * an {@link dev.proxy.rules.Expr} tree, {@link dev.proxy.rules.HttpRule} compiles a rule to a request matcher, and
 * {@link dev.proxy.rules.TagConstraint} / {@link dev.proxy.rules.LabelConstraint} compile provider constraints.
 *
 * <p>Pure Java, no I/O: every compile happens off the request path, and matching allocates little.
 * Types are non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.proxy.rules;

import io.micronaut.core.annotation.NullMarked;
