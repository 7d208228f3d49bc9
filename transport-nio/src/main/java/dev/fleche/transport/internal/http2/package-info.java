/**
 * HTTP/2 (RFC 9113) on the loop, for the same handlers: its connection, its streams, its frames; HPACK beneath it
 * ({@code http2.hpack}).
 *
 * <p>Owns: {@code Http2Connection} (the spine: its diagram, every decision; {@code Http2State} its table) and the parts
 * it owns, none of which names it: {@code Http2Inbound} (the client preface as far as matched, bytes kept for the next
 * read), {@code StreamTable} (the streams and the ids seen), {@code ClientFrames} (what each
 * frame read does: the flood budgets charged, SETTINGS, PING, WINDOW_UPDATE, RST_STREAM, GOAWAY),
 * {@code StreamRequests} (header blocks and DATA made into streams), {@code HeaderBlock} (a header block being
 * received, bounded), {@code StreamResponses} (the response side of the streams: the exchanges' answers, the
 * transport's own, the handler called, the streams' deadlines, a stream's local end or drop), {@code FlowControl} (both windows, and
 * {@code WaitingStreams}), {@code StreamOutput} (the output scheduler and response heads), {@code StreamTimers} (the
 * streams' body timeouts and rates), {@code PeerSettings}, {@code Http2Budgets} (every flood and reset budget, and which resets we send count),
 * {@code GoAway} (our GOAWAY, once, and what is dropped after it), {@code OutputProgress} (what the deadlines read of
 * the output), {@code Http2Framer} (frames out), {@code H2Stream} (a stream's state, windows and held-back bytes); and
 * the frame codec: {@code FrameReader}, {@code FrameWriter}, {@code Frames}, {@code Http2Error},
 * {@code Http2Exception}, {@code RequestFields}.
 *
 * <p>May import: {@code http2.hpack}, {@code exchange}, {@code loop}, {@code channel}, {@code telemetry},
 * {@code rules}, the request syntax ({@code RequestHead}, {@code ProtocolRule}), the public API. Never {@code http1}.
 */
package dev.fleche.transport.internal.http2;
