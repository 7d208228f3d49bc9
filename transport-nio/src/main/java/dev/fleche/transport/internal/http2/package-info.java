/**
 * HTTP/2 (RFC 9113) on the loop, for the same handlers: its connection, its streams, its frames; HPACK beneath it
 * ({@code http2.hpack}).
 *
 * <p>Owns: {@code Http2Connection} (the spine: its {@code State} and diagram, every decision) and the parts it owns,
 * none of which names it: {@code H2Stream} (a stream's state, windows and held-back bytes), {@code HeaderBlock} (a
 * header block being received, bounded), {@code PeerSettings}, {@code Http2Budgets} (every flood and reset budget),
 * {@code WaitingStreams}, {@code Http2Framer} (frames out); and the frame codec: {@code FrameReader},
 * {@code FrameWriter}, {@code Frames}, {@code Http2Error}, {@code Http2Exception}, {@code RequestFields}.
 *
 * <p>May import: {@code http2.hpack}, {@code exchange}, {@code loop}, {@code channel}, {@code telemetry},
 * {@code rules}, the request syntax ({@code RequestHead}, {@code ProtocolRule}), the public API. Never {@code http1}.
 */
package dev.fleche.transport.internal.http2;
