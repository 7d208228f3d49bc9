/**
 * The container's machinery: not an API, may change at any time. {@code Deployment} is one application at its base
 * path (and builds its Jersey requests), {@code ResponseWriter} writes Jersey's responses, {@code Workers} runs them
 * off the reactor, {@code BaseUris} makes the URIs; {@link dev.fleche.jersey.FlecheContainer} ties them together.
 */
package dev.fleche.jersey.internal;
