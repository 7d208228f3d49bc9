package dev.fleche.transport.internal;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.TlsInfo;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.net.ssl.SSLSession;

/**
 * A {@link ConnectionChannel} with no socket: reads hand out the client's bytes in the pieces a script chooses,
 * then (optionally) the end of the stream; writes take at most what the current allowance says (nothing, a few
 * bytes, all) and keep everything taken, for the test to parse. Misuse by the connection (a read or write after
 * close, a write after {@code shutdownOutput}) throws {@link AssertionError}, which no catch in the transport hides.
 */
final class FakeChannel implements ConnectionChannel {
    private final byte[] input;
    private final boolean fin;
    private int readAt;
    private int reads;
    private boolean finDelivered;
    private final ConnectionScript script;
    private byte[] written = new byte[256];
    private int writtenLength;
    /** What one {@link #write} may take now. */
    int allowance = Integer.MAX_VALUE;
    private boolean outputShut;
    private boolean closed;

    FakeChannel(ConnectionScript script) {
        this.script = script;
        this.input = script.message();
        this.fin = script.fin();
    }

    /** Whether a read would return something: bytes left, or the end of the stream not yet told. */
    boolean readable() {
        return readAt < input.length || (fin && !finDelivered);
    }

    boolean finDelivered() {
        return finDelivered;
    }

    /** How many reads delivered bytes so far. */
    int reads() {
        return reads;
    }

    @Override
    public int read(ByteBuffer dst) {
        if (closed) {
            throw new AssertionError("read after close");
        }
        if (readAt == input.length) {
            if (fin) {
                finDelivered = true;
                return -1;
            }
            return 0;
        }
        int n = Math.min(Math.min(dst.remaining(), script.piece(reads++)), input.length - readAt);
        dst.put(input, readAt, n);
        readAt += n;
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        if (closed || outputShut) {
            throw new AssertionError(closed ? "write after close" : "write after shutdownOutput");
        }
        int n = Math.min(src.remaining(), allowance);
        if (writtenLength + n > written.length) {
            written = Arrays.copyOf(written, Math.max(written.length * 2, writtenLength + n));
        }
        src.get(written, writtenLength, n);
        writtenLength += n;
        return n;
    }

    /** Everything the connection wrote. */
    byte[] written() {
        return Arrays.copyOf(written, writtenLength);
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
    public void shutdownOutput() {
        if (closed) {
            throw new AssertionError("shutdownOutput after close");
        }
        outputShut = true;
    }

    @Override
    public void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
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
