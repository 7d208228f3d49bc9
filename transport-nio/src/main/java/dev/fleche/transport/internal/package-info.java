/**
 * The transport's internals, and at this level the server's wiring: the one place that names the protocols.
 *
 * <p>Owns: {@code Protocols} (what each reactor makes of an accepted socket — an HTTP/1.1 connection, behind a PROXY
 * intake on a listener that takes the header; the hand-over of a socket to HTTP/2; the acceptor's {@code 503}) and
 * {@code MetricsSnapshot} (the reactors' counters summed into {@code ServerMetrics}). {@code HttpServer} starts the
 * parts these put together.
 *
 * <p>The packages below, top to bottom (each may import those below it, never one above; {@code LayeringTest}
 * holds it): {@code http1} and {@code http2} (the two protocols' connections, which never import each other) and
 * {@code files} (static content); {@code exchange} (the handler's view of a request, the same on both protocols) and
 * {@code proxy} (the PROXY protocol intake); {@code loop} (reactors, acceptor, timers, the write queue);
 * {@code telemetry} (counters, events, the access log); {@code rules} (every refusal and timer, named once);
 * {@code channel} (bytes in and out: plain, TLS); and the leaves {@code pem}, {@code http2.hpack} and the request
 * syntax {@code dev.fleche.transport.http1}. Every package may import the public API.
 *
 * <p>May import: everything.
 */
package dev.fleche.transport.internal;
