/**
 * The HTTP/1.1 connection (RFC 9112), on the loop; the request's syntax is parsed by
 * {@code dev.fleche.transport.http1}, beneath.
 *
 * <p>Owns: {@code Http1Connection} (the spine: its diagram, every step of its state; {@code Http1State} its table),
 * and the parts it owns, none of which names it: {@code Answering} (the exchanges' side, the door's {@code Behind}: an
 * exchange begun, its body handed over, the handler called, what it asks through the door, what its response
 * completing means, the transport's refusals; it asks the spine for each step through {@code Answering.Spine}),
 * {@code ExchangeInFlight} (the exchange in flight: started, handed to the
 * handler, told the client left, ended), {@code Inbound} (kept bytes, the head parser, the body decoder),
 * {@code RequestBody}, {@code BodyIntake} (how the body in flight begins, the bytes it takes, its rate and its limit),
 * {@code Intake} (the diagram's second axis: reading open, paused, ended), {@code ResponseSide} (the response side
 * while there is one: its {@code Outbound} taken and let go, what it holds, the handler's heads framed or a {@code 500}
 * in place of an invalid one, the transport's refusals), {@code Outbound} (the connection's write queue, into which it
 * frames responses with the {@code ResponseEncoder}), {@code Http1Shared} (what a reactor's HTTP/1.1 connections
 * share), {@code Http1Progress} (what the deadlines read of a connection), {@code Lingering} (the lingering close),
 * {@code Http2Handover} (the way to HTTP/2 before the first request, and the hand-over), {@code Http2Entry} (how HTTP/2
 * shows itself to HTTP/1.1) and {@code ToHttp2} (where the socket goes when it does).
 *
 * <p>May import: {@code exchange}, {@code loop}, {@code channel}, {@code telemetry}, {@code rules}, the request syntax,
 * the public API. Never {@code http2}: the hand-over goes through {@code ToHttp2}, which the wiring implements.
 */
package dev.fleche.transport.internal.http1;
