/**
 * What connections tell the world: counters, structured events, the access log.
 *
 * <p>Owns: {@code Counters} (a reactor's), {@code Events} ({@code System.Logger} {@code dev.fleche.transport}),
 * {@code Telemetry} (one per connection, told what happened — both protocols' events, named once),
 * {@code LoggedTelemetry} and {@code ConnectionLog} (with an access log, for both protocols: each HTTP/1.1 request
 * followed to its last byte, a line per HTTP/2 stream). The writer thread and the line formats are beneath it, in
 * {@code accesslog}.
 *
 * <p>May import: {@code accesslog}, {@code channel}, {@code rules}, the request syntax, the public API. Never the loop
 * or a protocol: a connection hands it numbers, not its parts.
 */
package dev.fleche.transport.internal.telemetry;
