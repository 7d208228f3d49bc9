/**
 * The PROXY protocol (HAProxy's, versions 1 and 2): the first stage of every connection on a listener that takes it.
 *
 * <p>Owns: {@code ProxyIntake} (checks the peer, reads the header within {@code headerTimeout}, then hands the socket
 * to what the wiring's factory makes of it, with the header's {@code Origin}), {@code ProxyHeaderParser} (a resumable
 * state machine over the header's bytes).
 *
 * <p>May import: {@code loop}, {@code channel}, {@code telemetry} (and its {@code accesslog}), {@code rules}, the
 * public API. Never a protocol.
 */
package dev.fleche.transport.internal.proxy;
