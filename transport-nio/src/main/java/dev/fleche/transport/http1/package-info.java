/**
 * HTTP/1.1 request parsing for the NIO transport: pure, resumable byte parsers with no I/O and no threads.
 *
 * <p>{@link dev.fleche.transport.http1.RequestHeadParser} reads a request head into a
 * {@link dev.fleche.transport.http1.RequestHead}; {@link dev.fleche.transport.http1.ChunkedDecoder} reads a
 * chunked body. Both are strict (RFC 9112 and RFC 9110): each refusal is a
 * {@link dev.fleche.transport.http1.RequestException} naming the
 * {@link dev.fleche.transport.http1.ProtocolRule} it enforces, with the status to answer.
 */
package dev.fleche.transport.http1;
