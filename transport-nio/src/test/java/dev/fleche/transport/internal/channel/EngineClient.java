package dev.fleche.transport.internal.channel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLParameters;

/**
 * A TLS client on a blocking socket and an {@link SSLEngine}, for what {@code SSLSocket} does not let a test
 * control: sending application data in the same TCP write as the client's last handshake flight, and telling a
 * {@code close_notify} from a bare TCP FIN. Every read times out through the socket's own timeout: none is set on
 * a channel, so tests bound it with JUnit's {@code @Timeout}.
 */
public final class EngineClient implements AutoCloseable {
    /** How the server ended its stream. */
    enum Ending { CLOSE_NOTIFY, FIN_WITHOUT_CLOSE_NOTIFY }

    private final SocketChannel socket;
    private final SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer netOut;
    private ByteBuffer appIn;
    /** Bytes read from the socket so far. */
    private long bytesReceived;
    /** Bytes to send in the same write as the first flight (a PROXY header), or null once sent. */
    private ByteBuffer preamble;

    EngineClient(SSLContext context, int port, String protocol) throws IOException {
        engine = context.createSSLEngine("localhost", port);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        engine.setSSLParameters(parameters);
        socket = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocate(packet).limit(0);
        netOut = ByteBuffer.allocate(4 * packet);
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).limit(0);
    }

    /**
     * Handshakes; when {@code firstData} is given, it is encrypted right after the client's last handshake message
     * and both leave in one write.
     */
    void handshake(byte[] firstData) throws IOException {
        engine.beginHandshake();
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            switch (status) {
                case NEED_WRAP -> {
                    SSLEngineResult result = engine.wrap(ByteBuffer.allocate(0), netOut);
                    if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                        if (firstData != null) {
                            engine.wrap(ByteBuffer.wrap(firstData), netOut);
                        }
                        send();
                        return;
                    }
                }
                case NEED_UNWRAP -> {
                    send();
                    SSLEngineResult result = unwrapOne();
                    if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                        if (firstData != null) {
                            write(firstData);
                        }
                        return;
                    }
                }
                case NEED_TASK -> {
                    for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                        task.run();
                    }
                }
                case NOT_HANDSHAKING, FINISHED -> {
                    send();
                    if (firstData != null) {
                        write(firstData);
                    }
                    return;
                }
                default -> throw new AssertionError(status);
            }
        }
    }

    SSLEngine engine() {
        return engine;
    }

    /** Bytes read from the socket so far (after {@link #handshake}: what the server's handshake sent). */
    long bytesReceived() {
        return bytesReceived;
    }

    void write(byte[] data) throws IOException {
        ByteBuffer src = ByteBuffer.wrap(data);
        while (src.hasRemaining()) {
            engine.wrap(src, netOut);
            send();
        }
    }

    /** Reads exactly {@code n} application bytes. */
    byte[] read(int n) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (out.size() < n) {
            if (!appIn.hasRemaining()) {
                SSLEngineResult result = unwrapOne();
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new IOException("closed after " + out.size() + " of " + n + " bytes");
                }
                continue;
            }
            int take = Math.min(n - out.size(), appIn.remaining());
            out.write(appIn.array(), appIn.arrayOffset() + appIn.position(), take);
            appIn.position(appIn.position() + take);
        }
        return out.toByteArray();
    }

    /** Reads until the server ends its stream, discarding application bytes (session tickets included). */
    Ending readToEnd() throws IOException {
        while (true) {
            SSLEngineResult result;
            try {
                result = unwrapOne();
            } catch (EndOfStream e) {
                return Ending.FIN_WITHOUT_CLOSE_NOTIFY;
            }
            appIn.position(appIn.limit());
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                return Ending.CLOSE_NOTIFY;
            }
        }
    }

    /** Sends {@code close_notify}. */
    void closeNotify() throws IOException {
        engine.closeOutbound();
        while (!engine.isOutboundDone()) {
            engine.wrap(ByteBuffer.allocate(0), netOut);
        }
        send();
    }

    /** Whether the socket reached EOF (no more bytes, no TLS involved), reading at most one buffer. */
    boolean socketAtEof() throws IOException {
        ByteBuffer any = ByteBuffer.allocate(64 * 1024);
        while (true) {
            any.clear();
            int n = socket.read(any);
            if (n < 0) {
                return true;
            }
        }
    }

    /** Sends {@code bytes} in the same write as the ClientHello (a PROXY header in front of TLS); before handshake. */
    void preamble(byte[] bytes) {
        preamble = ByteBuffer.wrap(bytes);
    }

    private void send() throws IOException {
        netOut.flip();
        if (preamble != null) {
            ByteBuffer[] both = {preamble, netOut};
            while (preamble.hasRemaining() || netOut.hasRemaining()) {
                socket.write(both);
            }
            preamble = null;
        }
        while (netOut.hasRemaining()) {
            socket.write(netOut);
        }
        netOut.clear();
    }

    private SSLEngineResult unwrapOne() throws IOException {
        while (true) {
            appIn.compact();
            SSLEngineResult result;
            try {
                result = engine.unwrap(netIn, appIn);
            } finally {
                appIn.flip();
            }
            switch (result.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    netIn.compact();
                    int n = socket.read(netIn);
                    netIn.flip();
                    if (n < 0) {
                        throw new EndOfStream();
                    }
                    bytesReceived += n;
                }
                case BUFFER_OVERFLOW -> throw new IOException("application buffer full: read the data first");
                default -> {
                    if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                            task.run();
                        }
                    }
                    return result;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** The socket ended (TCP FIN) while a record was awaited. */
    static final class EndOfStream extends IOException {
        private static final long serialVersionUID = 1L;

        EndOfStream() {
            super("end of stream");
        }
    }
}
