/** Implementation of {@code dev.fleche.async}; may change without notice. */
package dev.fleche.async.internal;
