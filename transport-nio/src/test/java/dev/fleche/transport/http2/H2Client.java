package dev.fleche.transport.http2;

import dev.fleche.transport.internal.http2.hpack.HpackDecoder;
import dev.fleche.transport.internal.http2.hpack.HpackEncoder;
import dev.fleche.transport.internal.http2.hpack.HpackException;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A raw HTTP/2 client for tests: writes frames byte for byte (its own HPACK encoder for header blocks) and reads the
 * server's frames one at a time, so that a test can assert the exact bytes of a refusal. Blocking, one thread.
 */
final class H2Client implements AutoCloseable {
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    static final int DATA = 0, HEADERS = 1, PRIORITY = 2, RST_STREAM = 3, SETTINGS = 4, PUSH_PROMISE = 5, PING = 6,
            GOAWAY = 7, WINDOW_UPDATE = 8, CONTINUATION = 9;
    static final int END_STREAM = 1, ACK = 1, END_HEADERS = 4;

    /** A frame as read; a HEADERS frame with its fields, decoded as it was read (the table stays in sync). */
    record Frame(int type, int flags, int stream, byte[] payload, List<String> fields) {
        /** The error code of RST_STREAM or GOAWAY. */
        int errorCode() {
            return ByteBuffer.wrap(payload).getInt(type == GOAWAY ? 4 : 0);
        }

        int lastStream() {
            return ByteBuffer.wrap(payload).getInt(0);
        }

        boolean has(int flag) {
            return (flags & flag) != 0;
        }

        /** The whole frame's bytes, as hex. */
        String hex() {
            ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
            b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                    .put((byte) type).put((byte) flags).putInt(stream).put(payload);
            return HexFormat.of().formatHex(b.array());
        }

        @Override
        public String toString() {
            return "Frame[type=" + type + " flags=" + flags + " stream=" + stream + " length=" + payload.length + "]";
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final HpackEncoder encoder = new HpackEncoder(4096);
    private final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
    /** The server's first SETTINGS frame, once read. */
    Frame serverSettings;

    H2Client(int port) throws IOException {
        this(port, 0);
    }

    /**
     * A client whose socket takes at most about {@code receiveBuffer} bytes ahead of its reads (SO_RCVBUF, set before
     * it connects; 0: the system's), so that a client that does not read fills up soon.
     */
    H2Client(int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Preface and our SETTINGS ({@code settings}: identifier, value pairs); reads and acks the server's. */
    H2Client handshake(int... settings) throws IOException {
        ByteBuffer payload = ByteBuffer.allocate(settings.length * 3);
        for (int i = 0; i < settings.length; i += 2) {
            payload.putShort((short) settings[i]).putInt(settings[i + 1]);
        }
        send(PREFACE);
        frame(SETTINGS, 0, 0, payload.array());
        serverSettings = next();
        if (serverSettings.type() != SETTINGS || serverSettings.has(ACK)) {
            throw new IOException("expected the server's SETTINGS first, got " + serverSettings);
        }
        frame(SETTINGS, ACK, 0, new byte[0]);
        return this;
    }

    /**
     * Preface, our SETTINGS and the ack of the server's, without reading a byte (the server's SETTINGS come first
     * whatever we send): the start of a client that never reads.
     */
    H2Client blindHandshake(int... settings) throws IOException {
        ByteBuffer payload = ByteBuffer.allocate(settings.length * 3);
        for (int i = 0; i < settings.length; i += 2) {
            payload.putShort((short) settings[i]).putInt(settings[i + 1]);
        }
        send(PREFACE);
        frame(SETTINGS, 0, 0, payload.array());
        frame(SETTINGS, ACK, 0, new byte[0]);
        return this;
    }

    /** The bytes of one frame, to send many at once. */
    static byte[] frameBytes(int type, int flags, int stream, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return b.array();
    }

    /** Reads every frame up to GOAWAY, which it returns, counting the others by type in {@code counts}. */
    Frame untilGoAway(int[] counts) throws IOException {
        while (true) {
            Frame frame = next();
            if (frame.type() == GOAWAY) {
                return frame;
            }
            if (frame.type() < counts.length) {
                counts[frame.type()]++;
            }
        }
    }

    /** The socket's input, for a test that reads something other than frames. */
    java.io.InputStream input() {
        return in;
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        send(frameBytes(type, flags, stream, payload));
    }

    /** An HPACK block of {@code fields} (name, value, name, value...). */
    byte[] block(String... fields) {
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        for (int i = 0; i < fields.length; i += 2) {
            if (!encoder.encode(fields[i], fields[i + 1], b)) {
                throw new IllegalStateException("block too large");
            }
        }
        byte[] bytes = new byte[b.position()];
        b.flip().get(bytes);
        return bytes;
    }

    /**
     * A literal field without indexing, name and value as given (no lowercasing, no Huffman; each under 127
     * bytes): for requests an encoder would not write.
     */
    static byte[] literal(String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(3 + n.length + v.length);
        b.put((byte) 0).put((byte) n.length).put(n).put((byte) v.length).put(v);
        return b.array();
    }

    /** HEADERS with {@code fields}, split into CONTINUATIONs of 16 KiB where larger. */
    void headers(int stream, boolean endStream, String... fields) throws IOException {
        byte[] block = block(fields);
        int at = 0;
        boolean first = true;
        do {
            int n = Math.min(16_384, block.length - at);
            boolean last = at + n == block.length;
            int flags = (last ? END_HEADERS : 0) | (first && endStream ? END_STREAM : 0);
            byte[] part = java.util.Arrays.copyOfRange(block, at, at + n);
            frame(first ? HEADERS : CONTINUATION, flags, stream, part);
            at += n;
            first = false;
        } while (at < block.length);
    }

    /** A GET of {@code path} on {@code stream}, without a body. */
    void get(int stream, String path) throws IOException {
        headers(stream, true, ":method", "GET", ":scheme", "http", ":authority", "localhost", ":path", path);
    }

    void data(int stream, boolean endStream, byte[] bytes) throws IOException {
        frame(DATA, endStream ? END_STREAM : 0, stream, bytes);
    }

    void rst(int stream, int code) throws IOException {
        frame(RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt(code).array());
    }

    void windowUpdate(int stream, int increment) throws IOException {
        frame(WINDOW_UPDATE, 0, stream, ByteBuffer.allocate(4).putInt(increment).array());
    }

    /** The next frame from the server. */
    Frame next() throws IOException {
        byte[] header = new byte[9];
        in.readFully(header);
        int length = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
        int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
        byte[] payload = new byte[length];
        in.readFully(payload);
        int type = header[3] & 0xFF;
        return new Frame(type, header[4] & 0xFF, stream, payload, type == HEADERS ? decode(payload) : null);
    }

    /** The next frame of {@code type}, skipping SETTINGS acks, WINDOW_UPDATEs and PING acks. */
    Frame expect(int type) throws IOException {
        while (true) {
            Frame frame = next();
            if (frame.type() == type) {
                return frame;
            }
            boolean skippable = frame.type() == WINDOW_UPDATE || (frame.type() == SETTINGS && frame.has(ACK))
                    || (frame.type() == PING && frame.has(ACK));
            if (!skippable) {
                throw new IOException("expected frame type " + type + ", got " + frame);
            }
        }
    }

    /** The fields of a header block (one HEADERS frame), decoded with this client's table when it was read. */
    List<String> fields(Frame headers) {
        return headers.fields();
    }

    private List<String> decode(byte[] block) throws IOException {
        List<String> fields = new ArrayList<>();
        try {
            decoder.decode(ByteBuffer.wrap(block), (name, value) -> fields.add(name + ": " + value));
        } catch (HpackException e) {
            throw new IOException(e);
        }
        return fields;
    }

    /** Reads a whole response on {@code stream}: its status, then the body's text. */
    String response(int stream) throws IOException {
        Frame head = expect(HEADERS);
        if (head.stream() != stream) {
            throw new IOException("HEADERS on stream " + head.stream());
        }
        StringBuilder text = new StringBuilder(fields(head).get(0));
        boolean end = head.has(END_STREAM);
        while (!end) {
            Frame data = expect(DATA);
            text.append('|').append(new String(data.payload(), StandardCharsets.UTF_8));
            end = data.has(END_STREAM);
        }
        return text.toString();
    }

    /** Whether the server closed the connection (reads frames until EOF; false if none within the timeout). */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                next();
            }
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
