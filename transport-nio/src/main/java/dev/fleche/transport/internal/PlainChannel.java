package dev.fleche.transport.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import dev.fleche.transport.TlsInfo;

import javax.net.ssl.SSLSession;

/** The plain-text {@link ConnectionChannel}: the socket as it is. Holds no bytes of its own. */
final class PlainChannel implements ConnectionChannel {
    private final SocketChannel socket;

    PlainChannel(SocketChannel socket) {
        this.socket = socket;
    }

    /** The socket, for {@link FileRegion}s: a file goes to it with {@code transferTo}, past the heap. */
    SocketChannel socket() {
        return socket;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return socket.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return socket.write(src);
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
        return false;
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
