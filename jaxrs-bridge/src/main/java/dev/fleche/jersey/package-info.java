/**
 * Jersey on Fleche: the {@link dev.fleche.jersey.FlecheContainer Container}, the server factory, the
 * {@code SeBootstrap} web server and {@link dev.fleche.jersey.NonBlocking @NonBlocking}. See the module README for
 * the ways in, the threading contract and the request properties.
 */
package dev.fleche.jersey;
