/**
 * HPACK, the header compression of HTTP/2 (RFC 7541), JDK only.
 *
 * <p>An HTTP/2 connection owns one {@link dev.fleche.transport.internal.http2.hpack.HpackDecoder} for the blocks it
 * receives and one {@link dev.fleche.transport.internal.http2.hpack.HpackEncoder} for the blocks it sends; only its loop
 * thread touches them. What the connection does with their answers:
 *
 * <table>
 *   <caption>Decoder outcomes</caption>
 *   <tr><th>outcome</th><th>the connection</th></tr>
 *   <tr><td>fields delivered to the sink</td><td>checks them (lowercase names, allowed characters,
 *       pseudo-fields first, no connection-specific fields: RFC 9113 §8.2, §8.3) — the decoder does not</td></tr>
 *   <tr><td>{@code HpackException}, {@code COMPRESSION_ERROR}</td><td>{@code GOAWAY(COMPRESSION_ERROR)}: the
 *       table can no longer be trusted (RFC 9113 §4.3)</td></tr>
 *   <tr><td>{@code HpackException}, {@code HEADER_LIST_TOO_LARGE}</td><td>{@code 431} or {@code RST_STREAM} on
 *       that stream; the connection goes on (the block was read to its end)</td></tr>
 * </table>
 *
 * <p>Settings: {@code SETTINGS_HEADER_TABLE_SIZE} we send is the decoder's {@code maxTableSize} (and
 * {@link dev.fleche.transport.internal.http2.hpack.HpackDecoder#maxTableSize(int)} once the peer acknowledged a change);
 * the one the peer sends goes to {@link dev.fleche.transport.internal.http2.hpack.HpackEncoder#peerTableSize(int)},
 * between blocks. {@code SETTINGS_MAX_HEADER_LIST_SIZE} we send is the decoder's {@code maxHeaderListSize}.
 *
 * <p>The classes: {@code StaticTable} (Appendix A), {@code DynamicTable} (§2.3.2, §4), {@code Huffman}
 * (Appendix B, §5.2), integers (§5.1) in the decoder and encoder that use them.
 *
 * <p>May import: nothing of the transport (a leaf).
 */
package dev.fleche.transport.internal.http2.hpack;
