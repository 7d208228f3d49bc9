package dev.fleche.transport.http1;

import dev.fleche.transport.HttpFields;
import java.util.Objects;

/**
 * A resumable decoder for a body in the chunked transfer coding (RFC 9112 7.1).
 *
 * <pre>
 *   SIZE_LINE --size &gt; 0--> DATA --size bytes--> DATA_CR --CR--> DATA_LF --LF--> SIZE_LINE
 *       |
 *       +--size 0--> TRAILER_LINE --field--> TRAILER_LINE
 *                         |
 *                         +--empty line--> DONE
 *   any violation --> FAILED (until reset)
 * </pre>
 *
 * <p>Chunk data is handed to a {@link BodySink} as slices of the caller's buffer, never copied. The chunk-size
 * line is bounded by {@code maxChunkLineBytes} (CRLF excluded), the trailer section by
 * {@code maxTrailerSectionBytes} (field lines with their CRLFs) and {@code maxTrailerCount}. Decoding stops right
 * after the CRLF that ends the trailer section; later bytes belong to the next request. Not thread-safe.
 */
public final class ChunkedDecoder {

    private enum State { SIZE_LINE, DATA, DATA_CR, DATA_LF, TRAILER_LINE, DONE, FAILED }

    private final int maxChunkLineBytes;
    private final LineReader lines = new LineReader();
    private final FieldSection trailerSection;
    private State state = State.SIZE_LINE;
    private long remaining;
    private HttpFields trailers;

    /**
     * @param maxChunkLineBytes the longest chunk-size line with its extensions, CRLF excluded (at least 1)
     * @param maxTrailerSectionBytes the largest trailer section: field lines with their CRLFs (at least 0)
     * @param maxTrailerCount the most trailer fields (at least 0)
     */
    public ChunkedDecoder(int maxChunkLineBytes, int maxTrailerSectionBytes, int maxTrailerCount) {
        if (maxChunkLineBytes < 1 || maxTrailerSectionBytes < 0 || maxTrailerCount < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
        this.maxChunkLineBytes = maxChunkLineBytes;
        this.trailerSection = new FieldSection(maxTrailerSectionBytes, maxTrailerCount,
                ProtocolRule.TRAILER_SECTION_TOO_LARGE, ProtocolRule.TOO_MANY_TRAILERS);
    }

    /**
     * Decodes {@code buf[offset, limit)}, passing each run of chunk data to {@code sink}.
     *
     * @return the index just past the last byte consumed; once {@link #isDone()}, nothing more is consumed
     * @throws RequestException on any violation; the decoder is then failed until {@link #reset()}
     * @throws IllegalStateException if the decoder has failed
     */
    public int decode(byte[] buf, int offset, int limit, BodySink sink) throws RequestException {
        Objects.checkFromToIndex(offset, limit, buf.length);
        if (state == State.FAILED) {
            throw new IllegalStateException("decoder failed; reset it first");
        }
        int pos = offset;
        try {
            while (pos < limit && state != State.DONE) {
                pos = switch (state) {
                    case SIZE_LINE -> sizeLine(buf, pos, limit);
                    case DATA -> data(buf, pos, limit, sink);
                    case DATA_CR -> expect(buf[pos], HttpChars.CR, State.DATA_LF, pos);
                    case DATA_LF -> expect(buf[pos], HttpChars.LF, State.SIZE_LINE, pos);
                    case TRAILER_LINE -> trailerLine(buf, pos, limit);
                    case DONE, FAILED -> throw new IllegalStateException(state.name());
                };
            }
        } catch (RequestException e) {
            state = State.FAILED;
            throw e;
        }
        return pos;
    }

    private int sizeLine(byte[] buf, int pos, int limit) throws RequestException {
        int next = lines.read(buf, pos, limit, maxChunkLineBytes, ProtocolRule.CHUNK_LINE_TOO_LONG);
        if (lines.hasLine()) {
            remaining = ChunkLine.parse(lines.array(), lines.start(), lines.end());
            state = remaining == 0 ? State.TRAILER_LINE : State.DATA;
        }
        return next;
    }

    private int data(byte[] buf, int pos, int limit, BodySink sink) {
        int length = (int) Math.min(remaining, limit - pos);
        sink.data(buf, pos, length);
        remaining -= length;
        if (remaining == 0) {
            state = State.DATA_CR;
        }
        return pos + length;
    }

    private int expect(byte actual, byte expected, State next, int pos) throws RequestException {
        if (actual != expected) {
            throw new RequestException(actual == HttpChars.LF
                    ? ProtocolRule.BARE_LF : ProtocolRule.CHUNK_DATA_UNTERMINATED);
        }
        state = next;
        return pos + 1;
    }

    private int trailerLine(byte[] buf, int pos, int limit) throws RequestException {
        int next = lines.read(buf, pos, limit, trailerSection.maxLineContent(), trailerSection.tooLargeRule());
        if (lines.hasLine() && trailerSection.accept(lines.array(), lines.start(), lines.end())) {
            trailers = trailerSection.take();
            state = State.DONE;
        }
        return next;
    }

    /**
     * The bytes of the current chunk announced by its size line and not yet decoded: 0 outside chunk data. Lets a
     * caller refuse a body that an announced size would take over its limit before the bytes arrive.
     */
    public long announcedRemaining() {
        return state == State.DATA ? remaining : 0;
    }

    /** Whether the last chunk and the trailer section have been read. */
    public boolean isDone() {
        return state == State.DONE;
    }

    /** The trailer fields, in order; an empty list when there are none (or none yet). */
    public HttpFields trailers() {
        if (trailers == null) {
            trailers = new HttpFields();
        }
        return trailers;
    }

    /** Forgets the current body and waits for a new one. */
    public void reset() {
        state = State.SIZE_LINE;
        remaining = 0;
        trailers = null;
        lines.reset();
        trailerSection.reset();
    }
}
