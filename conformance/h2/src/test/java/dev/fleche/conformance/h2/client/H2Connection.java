package dev.fleche.conformance.h2.client;

import dev.fleche.conformance.h2.client.Frame.Field;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A raw HTTP/2 client for conformance tests, JDK only, used by one thread: it writes whatever frames a test asks for, byte for byte,
 * valid or not, and reads the server's frames one at a time with a deadline. It negotiates nothing on its own (no
 * window updates, no settings acks but in {@link #handshake}), so what the server sends is what a test sees.
 *
 * <p>Written independently of the transport's codec (its own frame layout, {@link FieldBlock} and
 * {@link FieldDecoder} for HPACK, {@link Huffman}): a mistake in the server's codec cannot hide behind the same
 * mistake in the client's. Writes never throw: a server that has closed the connection may refuse the rest of a
 * test's frames, and the test then reads what the server said before it closed. Every frame each way goes to a
 * transcript that failure messages carry.
 */
public final class H2Connection implements AutoCloseable {
    /** The client connection preface (RFC 9113 3.4). */
    public static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** How long a read waits for the server: generous, for a loaded machine; a conforming server answers in ms. */
    public static final Duration WAIT = Duration.ofSeconds(10);
    /** Our SETTINGS_HEADER_TABLE_SIZE and SETTINGS_MAX_FRAME_SIZE: the initial values, never changed. */
    private static final int TABLE_SIZE = 4096;

    /** What a read gives: a frame, the end of the connection, or nothing before the deadline. */
    public sealed interface Event permits Received, Closed, TimedOut {
    }

    /** A frame from the server. */
    public record Received(Frame frame) implements Event {
        @Override
        public String toString() {
            return frame.toString();
        }
    }

    /** The server closed (or reset) the connection. */
    public record Closed(String how) implements Event {
        @Override
        public String toString() {
            return "connection closed (" + how + ")";
        }
    }

    /** Nothing arrived in time. */
    public record TimedOut(Duration after) implements Event {
        @Override
        public String toString() {
            return "nothing within " + after.toSeconds() + " s";
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String scheme;
    private final String authority;
    private final FieldDecoder decoder = new FieldDecoder(TABLE_SIZE);
    private final Deque<Frame> pending = new ArrayDeque<>();
    private final List<String> transcript = new ArrayList<>();
    private final Map<Integer, Long> serverSettings = new LinkedHashMap<>();
    private boolean ended;

    private H2Connection(Socket socket, String scheme) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.scheme = scheme;
        this.authority = "localhost:" + socket.getPort();
        socket.setTcpNoDelay(true);
    }

    /** A clear-text connection to speak HTTP/2 with prior knowledge (RFC 9113 3.3); nothing sent yet. */
    public static H2Connection plain(InetSocketAddress server) throws IOException {
        Socket socket = new Socket();
        socket.connect(server, (int) WAIT.toMillis());
        return new H2Connection(socket, "http");
    }

    /**
     * A TLS connection that offered only {@code h2} in ALPN (RFC 9113 3.2), its handshake done; nothing sent yet.
     * The caller checks {@link #alpn()}.
     */
    public static H2Connection tls(InetSocketAddress server, SSLContext context) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        socket.connect(server, (int) WAIT.toMillis());
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2"});
        parameters.setServerNames(List.of(new javax.net.ssl.SNIHostName("localhost")));
        socket.setSSLParameters(parameters);
        socket.setSoTimeout((int) WAIT.toMillis());
        socket.startHandshake();
        return new H2Connection(socket, "https");
    }

    /** The protocol TLS's ALPN settled on; {@code null} on a clear-text connection. */
    public String alpn() {
        return socket instanceof SSLSocket tls ? tls.getApplicationProtocol() : null;
    }

    /** {@code localhost:port}: the {@code :authority} of this connection's requests. */
    public String authority() {
        return authority;
    }

    /** {@code http} or {@code https}: the {@code :scheme} of this connection's requests. */
    public String scheme() {
        return scheme;
    }

    /**
     * The connection preface, our SETTINGS ({@code settings}: identifier, value pairs), then the server's SETTINGS
     * acknowledged and ours acknowledged by the server, so that the server has applied ours when this returns. Fails
     * unless the server's first frame is a SETTINGS frame (its preface, RFC 9113 3.4). Other frames that arrive
     * meanwhile are kept for the test's reads.
     */
    public H2Connection handshake(int... settings) {
        write(PREFACE);
        settings(settings);
        boolean theirs = false;
        boolean ours = false;
        boolean first = true;
        while (!(theirs && ours)) {
            Event event = read();
            if (!(event instanceof Received received)) {
                throw failure("the handshake ended with " + event);
            }
            Frame frame = received.frame();
            if (first && (frame.type() != Frame.SETTINGS || frame.has(Frame.ACK))) {
                throw failure("the server's preface must be a SETTINGS frame, got " + frame);
            }
            first = false;
            if (frame.type() == Frame.SETTINGS && frame.has(Frame.ACK)) {
                ours = true;
            } else if (frame.type() == Frame.SETTINGS) {
                ByteBuffer payload = ByteBuffer.wrap(frame.payload());
                while (payload.remaining() >= 6) {
                    serverSettings.put(payload.getShort() & 0xFFFF, payload.getInt() & 0xFFFF_FFFFL);
                }
                settingsAck();
                theirs = true;
            } else {
                pending.add(frame);
            }
        }
        return this;
    }

    /** A setting from the server's SETTINGS frame of the handshake, or {@code null} when it did not send it. */
    public Long serverSetting(int identifier) {
        return serverSettings.get(identifier);
    }

    /** The server's SETTINGS_MAX_FRAME_SIZE (its initial value when not sent). */
    public int serverMaxFrameSize() {
        Long value = serverSetting(Setting.MAX_FRAME_SIZE);
        return value == null ? Setting.DEFAULT_MAX_FRAME_SIZE : value.intValue();
    }

    // ---------------------------------------------------------------- writing

    /** Octets as they are. */
    public void write(byte[] octets) {
        try {
            out.write(octets);
            out.flush();
        } catch (IOException e) {
            transcript.add("-> write failed: " + e);
        }
    }

    /** A frame: the 9-octet header (length, type, flags, reserved bit clear, stream) and the payload. */
    public void frame(int type, int flags, int stream, byte[] payload) {
        transcript.add("-> " + new Frame(type, flags, stream, payload, null));
        write(header(payload.length, type, flags, stream, payload));
    }

    /** A frame header followed by {@code payload}, all raw: the length and the stream word as given. */
    public static byte[] header(int length, int type, int flags, int streamWord, byte[] payload) {
        return ByteBuffer.allocate(9 + payload.length).put((byte) (length >>> 16)).put((byte) (length >>> 8))
                .put((byte) length).put((byte) type).put((byte) flags).putInt(streamWord).put(payload).array();
    }

    /** A frame exactly as given, its length field taken from {@code payload}, the stream word raw (reserved bit). */
    public void rawFrame(int type, int flags, int streamWord, byte[] payload) {
        transcript.add("-> raw " + Frame.typeName(type) + String.format(" flags 0x%02x stream word 0x%08x, %d octets",
                flags, streamWord, payload.length));
        write(header(payload.length, type, flags, streamWord, payload));
    }

    public void settings(int... pairs) {
        ByteBuffer payload = ByteBuffer.allocate(pairs.length * 3);
        for (int i = 0; i < pairs.length; i += 2) {
            payload.putShort((short) pairs[i]).putInt(pairs[i + 1]);
        }
        frame(Frame.SETTINGS, 0, 0, payload.array());
    }

    public void settingsAck() {
        frame(Frame.SETTINGS, Frame.ACK, 0, new byte[0]);
    }

    public void ping(boolean ack, byte[] opaque) {
        frame(Frame.PING, ack ? Frame.ACK : 0, 0, opaque);
    }

    public void goAway(int lastStream, int code, byte[] debug) {
        frame(Frame.GOAWAY, 0, 0, ByteBuffer.allocate(8 + debug.length).putInt(lastStream).putInt(code).put(debug)
                .array());
    }

    public void rstStream(int stream, int code) {
        frame(Frame.RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt(code).array());
    }

    public void windowUpdate(int stream, int increment) {
        frame(Frame.WINDOW_UPDATE, 0, stream, ByteBuffer.allocate(4).putInt(increment).array());
    }

    public void priority(int stream, boolean exclusive, int dependency, int weight) {
        frame(Frame.PRIORITY, 0, stream, priorityFields(exclusive, dependency, weight));
    }

    /** The 5 priority octets of PRIORITY and of HEADERS with the PRIORITY flag (weight 1-256 sent as 0-255). */
    public static byte[] priorityFields(boolean exclusive, int dependency, int weight) {
        return ByteBuffer.allocate(5).putInt(dependency | (exclusive ? 0x8000_0000 : 0)).put((byte) (weight - 1))
                .array();
    }

    public void headers(int stream, int flags, byte[] block) {
        frame(Frame.HEADERS, flags, stream, block);
    }

    public void headers(int stream, int flags, FieldBlock block) {
        headers(stream, flags, block.bytes());
    }

    /** HEADERS with PADDED: a pad length octet, the block, {@code padding} zero octets. */
    public void headersPadded(int stream, int flags, byte[] block, int padding) {
        frame(Frame.HEADERS, flags | Frame.PADDED, stream, padded(block, padding));
    }

    /** HEADERS with the PRIORITY flag and its fields before the block. */
    public void headersWithPriority(int stream, int flags, boolean exclusive, int dependency, int weight,
                                    byte[] block) {
        byte[] priority = priorityFields(exclusive, dependency, weight);
        frame(Frame.HEADERS, flags | Frame.PRIORITY_FLAG, stream,
                ByteBuffer.allocate(5 + block.length).put(priority).put(block).array());
    }

    public void continuation(int stream, boolean endHeaders, byte[] fragment) {
        frame(Frame.CONTINUATION, endHeaders ? Frame.END_HEADERS : 0, stream, fragment);
    }

    public void data(int stream, boolean endStream, byte[] data) {
        frame(Frame.DATA, endStream ? Frame.END_STREAM : 0, stream, data);
    }

    public void dataPadded(int stream, boolean endStream, byte[] data, int padding) {
        frame(Frame.DATA, (endStream ? Frame.END_STREAM : 0) | Frame.PADDED, stream, padded(data, padding));
    }

    public void pushPromise(int stream, int promised, byte[] block) {
        frame(Frame.PUSH_PROMISE, Frame.END_HEADERS, stream,
                ByteBuffer.allocate(4 + block.length).putInt(promised).put(block).array());
    }

    private static byte[] padded(byte[] content, int padding) {
        return ByteBuffer.allocate(1 + content.length + padding).put((byte) padding).put(content).array();
    }

    /**
     * The request control data of RFC 9113 8.3.1 for {@code method} and {@code path} on this connection:
     * {@code :method}, {@code :scheme}, {@code :path}, {@code :authority}, as a block to add fields to.
     */
    public FieldBlock request(String method, String path) {
        return FieldBlock.of(":method", method, ":scheme", scheme, ":path", path, ":authority", authority);
    }

    /** A GET of {@code path} on {@code stream}, END_STREAM set: a whole request in one frame. */
    public void get(int stream, String path) {
        headers(stream, Frame.END_HEADERS | Frame.END_STREAM, request("GET", path));
    }

    // ---------------------------------------------------------------- reading

    /** The next event: a frame kept from the handshake, else a read from the socket within {@link #WAIT}. */
    public Event next() {
        Frame kept = pending.poll();
        return kept != null ? new Received(kept) : read();
    }

    /** The transcript so far, one frame a line, for failure messages. */
    public String transcript() {
        return String.join("\n", transcript);
    }

    /** An AssertionError saying {@code what}, with the transcript. */
    public AssertionError failure(String what) {
        return new AssertionError(what + "\n--- frames (-> sent, <- received):\n" + transcript());
    }

    private Event read() {
        if (ended) {
            return new Closed("already");
        }
        try {
            socket.setSoTimeout((int) WAIT.toMillis());
            byte[] header = new byte[9];
            if (!readFully(header, true)) {
                return closed("end of stream");
            }
            int length = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
            if (length > Setting.DEFAULT_MAX_FRAME_SIZE) {
                throw failure("the server sent a frame of " + length
                        + " octets, over our SETTINGS_MAX_FRAME_SIZE (RFC 9113 4.2)");
            }
            byte[] payload = new byte[length];
            readFully(payload, false);
            int type = header[3] & 0xFF;
            int flags = header[4] & 0xFF;
            int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
            Frame frame = type == Frame.HEADERS ? receivedHeaders(flags, stream, payload)
                    : new Frame(type, flags, stream, payload, null);
            transcript.add("<- " + frame);
            return new Received(frame);
        } catch (SocketTimeoutException e) {
            transcript.add("<- (nothing within " + WAIT.toSeconds() + " s)");
            return new TimedOut(WAIT);
        } catch (EOFException e) {
            return closed("end of stream inside a frame");
        } catch (IOException e) {
            return closed(e.toString());
        }
    }

    private Event closed(String how) {
        ended = true;
        transcript.add("<- closed: " + how);
        return new Closed(how);
    }

    /** Fills {@code buffer}; false when the stream ended before its first octet and {@code atStart}. */
    private boolean readFully(byte[] buffer, boolean atStart) throws IOException {
        int at = 0;
        while (at < buffer.length) {
            int n = in.read(buffer, at, buffer.length - at);
            if (n < 0) {
                if (at == 0 && atStart) {
                    return false;
                }
                throw new EOFException();
            }
            at += n;
        }
        return true;
    }

    /** A HEADERS frame with its CONTINUATIONs joined (RFC 9113 6.10) and its block decoded. */
    private Frame receivedHeaders(int flags, int stream, byte[] payload) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(fragment(flags, payload));
        int allFlags = flags;
        while ((allFlags & Frame.END_HEADERS) == 0) {
            byte[] header = new byte[9];
            readFully(header, false);
            int length = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
            byte[] more = new byte[length];
            readFully(more, false);
            int next = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
            if ((header[3] & 0xFF) != Frame.CONTINUATION || next != stream) {
                throw failure("the server interrupted a field block on stream " + stream
                        + " with a frame of type " + (header[3] & 0xFF) + " (RFC 9113 6.2)");
            }
            block.write(more);
            allFlags |= header[4] & Frame.END_HEADERS;
        }
        List<Field> fields;
        try {
            fields = decoder.decode(block.toByteArray());
        } catch (HpackException e) {
            throw failure("the server's field block on stream " + stream + " does not decode: " + e.getMessage());
        }
        return new Frame(Frame.HEADERS, allFlags, stream, payload, fields);
    }

    /** The field block fragment of a HEADERS payload: without pad length, priority fields and padding. */
    private byte[] fragment(int flags, byte[] payload) {
        int from = 0;
        int to = payload.length;
        if ((flags & Frame.PADDED) != 0) {
            from = 1;
            to -= payload[0] & 0xFF;
        }
        if ((flags & Frame.PRIORITY_FLAG) != 0) {
            from += 5;
        }
        if (from > to) {
            throw failure("the server sent a HEADERS frame whose padding exceeds it (RFC 9113 6.2)");
        }
        return Arrays.copyOfRange(payload, from, to);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a test's socket: nothing to do about it
        }
    }
}
