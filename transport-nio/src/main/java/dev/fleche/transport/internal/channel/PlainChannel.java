package dev.fleche.transport.internal.channel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import dev.fleche.transport.TlsInfo;

import javax.net.ssl.SSLSession;

/**
 * The plain-text {@link ConnectionChannel}: the socket as it is. Holds no bytes of its own, but for bytes read
 * before it existed (past a PROXY protocol header), which it serves first.
 */
public final class PlainChannel implements ConnectionChannel {
    private final SocketChannel socket;
    /** Bytes read past a PROXY header, served before the socket's; null once served (or when there were none). */
    private ByteBuffer early;

    public PlainChannel(SocketChannel socket) {
        this.socket = socket;
    }

    /** A channel that serves {@code early} (bytes already read from {@code socket}) before reading the socket. */
    public PlainChannel(SocketChannel socket, byte[] early) {
        this.socket = socket;
        this.early = ByteBuffer.wrap(early);
    }

    /** The socket, for {@link FileRegion}s: a file goes to it with {@code transferTo}, past the heap. */
    public SocketChannel socket() {
        return socket;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (early != null) {
            int n = Math.min(early.remaining(), dst.remaining());
            dst.put(dst.position(), early, early.position(), n).position(dst.position() + n);
            early.position(early.position() + n);
            if (!early.hasRemaining()) {
                early = null;
            }
            return n;
        }
        return socket.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return socket.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return socket.write(srcs, offset, length);
    }

    @Override
    public boolean flush() {
        return true;
    }

    @Override
    public int interestOps(int wanted) {
        return wanted;
    }

    @Override
    public boolean hasBufferedInput() {
        return early != null;
    }

    @Override
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public SSLSession tlsSession() {
        return null;
    }

    @Override
    public boolean isHandshaking() {
        return false;
    }

    @Override
    public TlsInfo tlsInfo() {
        return null;
    }
}
