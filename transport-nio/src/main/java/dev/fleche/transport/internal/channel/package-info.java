/**
 * The byte channels under a connection: bytes in and out of a socket, plain or TLS, and where they come from.
 *
 * <p>Owns: {@code ConnectionChannel} (what a connection reads and writes through, and its {@code Listener}),
 * {@code PlainChannel}, {@code TlsChannel} (over {@code SSLEngine}, its handshake driven by readiness, its phases drawn
 * on the class), {@code DelegatedTasks} (one channel's delegated tasks, run off the reactor and back),
 * {@code SettledSession} (what a first handshake settled, as {@code TlsInfo}), {@code HandshakeTasks} (the pool for
 * the engine's delegated tasks), {@code PacketBufferPool} (a reactor's record buffers),
 * {@code PlaintextRequestException}, {@code FileRegion} (a part of a file sent with {@code transferTo}),
 * {@code Origin} (a connection's addresses: the socket's or a PROXY header's) and {@code AddressRange} (a CIDR range).
 *
 * <p>May import: the public API only. Never a protocol, the loop or anything else of the internals.
 */
package dev.fleche.transport.internal.channel;
