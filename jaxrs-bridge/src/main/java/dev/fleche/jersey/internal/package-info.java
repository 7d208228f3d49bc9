/**
 * The container's machinery: not an API, may change at any time. {@link dev.fleche.jersey.internal.JerseyBridge}
 * turns exchanges into Jersey requests, {@code ResponseWriter} writes Jersey's responses, {@code Workers} runs them
 * off the reactor.
 */
package dev.fleche.jersey.internal;
