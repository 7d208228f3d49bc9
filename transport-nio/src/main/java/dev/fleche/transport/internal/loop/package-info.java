/**
 * The event loop: an acceptor thread hands sockets round robin to reactors, each a thread with its own selector, its
 * connections, a task queue, a hashed timer wheel, one read buffer and one staging buffer for writes.
 *
 * <p>Owns: {@code Acceptor}, {@code Reactor} (and the two things it knows of a connection: {@code Reactor.Attachment},
 * and the {@code Reactor.ConnectionFactory} the wiring gives it), {@code TimerWheel} and {@code TimerNode},
 * {@code ScheduledTask} (a handler's timer), {@code WriteQueue} (what a connection writes, staged then queued,
 * whatever the protocol framed into it), {@code KeyInterest} (a connection's selection key and the interest set on it,
 * for both protocols), {@code ByteSink}, {@code UnixSocketListener}. The loop names no protocol:
 * what a socket becomes is the factory's.
 *
 * <p>May import: {@code channel}, {@code telemetry} (and its {@code accesslog}), {@code rules}, the public API. Never
 * {@code http1}, {@code http2}, {@code exchange}, {@code files}, {@code proxy} or the request syntax.
 */
package dev.fleche.transport.internal.loop;
