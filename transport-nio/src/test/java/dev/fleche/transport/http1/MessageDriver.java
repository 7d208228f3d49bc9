package dev.fleche.transport.http1;

import dev.fleche.transport.HttpFields;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test driver: feeds a request (head, then a chunked or Content-Length body) to the parsers in pieces, the way
 * the reactor will, and describes everything they produced as one comparable string.
 *
 * <p>Each piece is copied into a fresh array at a non-zero offset with garbage around it, and overwritten after
 * use, so a parser that reads outside its range or keeps a reference to a caller's buffer is caught.
 */
final class MessageDriver {

    static final int LINE = 256;
    static final int SECTION = 1024;
    static final int COUNT = 32;

    private final RequestHeadParser parser;
    private final ChunkedDecoder decoder;
    private final StringBuilder result = new StringBuilder();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final ByteArrayOutputStream rest = new ByteArrayOutputStream();
    private RequestHead head;
    private long bodyLeft;

    MessageDriver(RequestHeadParser parser, ChunkedDecoder decoder) {
        this.parser = parser;
        this.decoder = decoder;
    }

    static MessageDriver withDefaults() {
        return new MessageDriver(new RequestHeadParser(LINE, SECTION, COUNT), new ChunkedDecoder(LINE, SECTION, COUNT));
    }

    /** ISO-8859-1 bytes of {@code text}, so that chars up to U+00FF stand for single bytes. */
    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Feeds the whole message at once and returns its description. */
    static String whole(byte[] message) throws RequestException {
        return withDefaults().feed(List.of(message));
    }

    /** Feeds the message split into two pieces at {@code at}. */
    static String splitAt(byte[] message, int at) throws RequestException {
        return withDefaults().feed(List.of(Arrays.copyOfRange(message, 0, at),
                Arrays.copyOfRange(message, at, message.length)));
    }

    /** Feeds the message one byte at a time. */
    static String byteByByte(byte[] message) throws RequestException {
        List<byte[]> pieces = new ArrayList<>();
        for (byte b : message) {
            pieces.add(new byte[] {b});
        }
        return withDefaults().feed(pieces);
    }

    /** Feeds the pieces in order; returns the description of what was parsed. */
    String feed(List<byte[]> pieces) throws RequestException {
        for (byte[] piece : pieces) {
            int offset = 3;
            byte[] buf = new byte[piece.length + 6];
            Arrays.fill(buf, (byte) '!');
            System.arraycopy(piece, 0, buf, offset, piece.length);
            int pos = offset;
            int limit = offset + piece.length;
            while (pos < limit) {
                pos = step(buf, pos, limit);
            }
            Arrays.fill(buf, (byte) '\n');
        }
        if (head != null && bodyDone()) {
            result.append("body=").append(body.toString(StandardCharsets.ISO_8859_1)).append('\n');
        }
        if (rest.size() > 0) {
            result.append("rest=").append(rest.toString(StandardCharsets.ISO_8859_1)).append('\n');
        }
        return result.toString();
    }

    private int step(byte[] buf, int pos, int limit) throws RequestException {
        if (head == null) {
            int next = parser.parse(buf, pos, limit);
            if (next < pos || next > limit || (next < limit && !parser.isComplete())) {
                throw new AssertionError("parse consumed badly: " + pos + ".." + next + " of " + limit);
            }
            if (parser.isComplete()) {
                head = parser.take();
                bodyLeft = head.chunked() ? 0 : Math.max(0, head.contentLength());
                result.append(describe(head));
            }
            return next;
        }
        if (head.chunked() && !decoder.isDone()) {
            int next = decoder.decode(buf, pos, limit, this::onData);
            if (next <= pos || next > limit || (next < limit && !decoder.isDone())) {
                throw new AssertionError("decode consumed badly: " + pos + ".." + next + " of " + limit);
            }
            if (decoder.isDone()) {
                result.append("trailers=").append(describe(decoder.trailers()));
            }
            return next;
        }
        if (bodyLeft > 0) {
            int n = (int) Math.min(bodyLeft, limit - pos);
            body.write(buf, pos, n);
            bodyLeft -= n;
            return pos + n;
        }
        rest.write(buf, pos, limit - pos);
        return limit;
    }

    private void onData(byte[] buf, int offset, int length) {
        if (length <= 0) {
            throw new AssertionError("empty data call");
        }
        body.write(buf, offset, length);
    }

    private boolean bodyDone() {
        return head.chunked() ? decoder.isDone() : bodyLeft == 0;
    }

    static String describe(RequestHead h) {
        return "method=" + h.method() + "\ntarget=" + h.target() + "\npath=" + h.path() + "\nquery=" + h.query()
                + "\nversion=1." + h.minorVersion() + "\nhost=" + h.host() + "\ncontentLength=" + h.contentLength()
                + "\nchunked=" + h.chunked() + "\nhasBody=" + h.hasBody() + "\nkeepAlive=" + h.keepAlive()
                + "\nexpectContinue=" + h.expectContinue() + "\nheaders=" + describe(h.headers());
    }

    static String describe(HttpFields fields) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < fields.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(fields.name(i)).append('=').append(fields.value(i));
        }
        return text.append("]\n").toString();
    }
}
