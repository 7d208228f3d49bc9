/**
 * HTTP/1.1 request parsing for the NIO transport: pure, resumable byte parsers with no I/O and no threads.
 *
 * <p>{@link dev.fleche.transport.http1.RequestHeadParser} reads a request head into a
 * {@link dev.fleche.transport.http1.RequestHead}; {@link dev.fleche.transport.http1.ChunkedDecoder} reads a
 * chunked body. Both are strict (RFC 9112 and RFC 9110): each refusal is a
 * {@link dev.fleche.transport.http1.RequestException} naming the
 * {@link dev.fleche.transport.http1.ProtocolRule} it enforces, with the status to answer.
 *
 * <p>The request's syntax, beneath both protocols: the HTTP/1.1 connection ({@code internal.http1}) parses with it,
 * and HTTP/2 ({@code internal.http2}) builds the same {@code RequestHead} for its streams and refuses by the same
 * rules where they apply (an over-long target, a header list too large).
 *
 * <p>May import: the public API only (a leaf: no I/O, no threads, nothing of the internals).
 */
package dev.fleche.transport.http1;
