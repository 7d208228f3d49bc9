/**
 * The handler's view of one request and its response, the same whichever protocol carries it.
 *
 * <p>Owns: {@code Exchange} (the transport's {@code HttpExchange}: request view, body stream, the response claim),
 * {@code ConnectionDoor} (the one way up from an exchange to its connection: it owns the hop onto the loop and calls
 * the connection's {@code ConnectionDoor.Behind} there), {@code BodyInput} (a request body streamed to a handler
 * thread), {@code ResponseOutput} (a streamed response), {@code PacedBody} (a body read off the loop as fast as the
 * client takes it), {@code ResponseHead}, {@code Responses} (status and body rules every response follows),
 * {@code HttpDate} (the {@code Date} cache), {@code Ascii}, and {@code StaticTransfers} (what static content asks of
 * an exchange beyond the public API).
 *
 * <p>May import: {@code loop}, {@code channel}, {@code telemetry} (and its {@code accesslog}), {@code rules}, the
 * request syntax, the public API. Never a protocol: an exchange reaches its connection only through the door.
 */
package dev.fleche.transport.internal.exchange;
