package dev.fleche.transport.internal.proxy;

import dev.fleche.transport.internal.channel.AddressRange;
import dev.fleche.transport.internal.telemetry.Counters;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.loop.TimerNode;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.internal.proxy.ProxyHeaderParser.ProxyHeaderException;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;

/**
 * The first stage of a connection on a PROXY protocol listener ({@code ServerOptions.proxyProtocol}): before any TLS
 * or HTTP byte, it checks that the peer is a trusted proxy, reads the PROXY header with a
 * {@link ProxyHeaderParser} within {@code headerTimeout} of the accept, then hands the socket to the listener's
 * connection ({@link Reactor#handOver}) with the {@link Origin} the header gave and the bytes read past the header
 * (the TLS ClientHello, an HTTP request, the HTTP/2 preface), which that connection's channel serves first. A
 * refusal closes the socket without a byte: counted by its {@link Refusal} rule, a {@code reject} event, an
 * access-log line. Reactor thread only.
 *
 * <pre>
 *   READING ─ header whole ─▶ HANDED_OVER   (the connection takes the key, its place and the bytes after the header)
 *      │ untrusted peer, missing, malformed, too long, truncated, not in time
 *      └───────────────────────▶ CLOSED
 * </pre>
 */
public final class ProxyIntake extends TimerNode implements Reactor.Attachment {

    /** The phases of the diagram above. */
    enum State { READING, HANDED_OVER, CLOSED }

    private final Reactor reactor;
    private final SocketChannel socket;
    private final long id;
    /** The trusted sources: a peer outside them is closed before a byte is read. */
    private final AddressRange[] sources;
    /** What the socket becomes once the header is whole. */
    private final Reactor.ConnectionFactory next;
    private final ProxyHeaderParser parser;
    /** When the socket was adopted (the reactor's clock): the header must be whole by then plus headerTimeout. */
    private final long adopted;
    private State state = State.READING;
    private SelectionKey key;
    private int slot = -1;

    private ProxyIntake(Reactor reactor, SocketChannel socket, long id, AddressRange[] sources,
            Reactor.ConnectionFactory next) {
        this.reactor = reactor;
        this.socket = socket;
        this.id = id;
        this.sources = sources;
        this.next = next;
        this.parser = new ProxyHeaderParser(reactor.options.proxyProtocol().maxHeaderBytes());
        this.adopted = reactor.now;
    }

    /**
     * What a PROXY protocol listener makes of each socket: an intake that reads the header, then hands the socket
     * to what {@code next} makes of it, with the header's addresses.
     */
    public static Reactor.ConnectionFactory factory(ProxyProtocol protocol, Reactor.ConnectionFactory next) {
        AddressRange[] sources = trustedSources(protocol);
        return (reactor, socket, id, origin, early) -> new ProxyIntake(reactor, socket, id, sources, next);
    }

    /** The trusted sources of {@code protocol}, parsed once. */
    private static AddressRange[] trustedSources(ProxyProtocol protocol) {
        List<String> sources = protocol.trustedSources();
        AddressRange[] ranges = new AddressRange[sources.size()];
        for (int i = 0; i < ranges.length; i++) {
            ranges[i] = AddressRange.parse(sources.get(i));
        }
        return ranges;
    }

    State state() {
        return state;
    }

    @Override
    public int slot() {
        return slot;
    }

    @Override
    public void slot(int value) {
        slot = value;
    }

    @Override
    public void opened(SelectionKey registered) {
        key = registered;
        SocketAddress peer = Origin.address(socket, true);
        if (peer instanceof InetSocketAddress inet && !trusted(inet.getAddress())) {
            refuse(new ProxyHeaderException(Refusal.PROXY_SOURCE_UNTRUSTED, "peer " + inet.getAddress()
                    .getHostAddress() + " is outside trustedSources"));
            return;
        }
        reactor.wheel.schedule(this, adopted + reactor.options.headerTimeout().toNanos());
    }

    private boolean trusted(InetAddress address) {
        for (AddressRange range : sources) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false; // a Unix domain socket's peer is no InetSocketAddress: trusted (the file's mode decides)
    }

    @Override
    public void onReady(SelectionKey ready) {
        if (state != State.READING) {
            return;
        }
        try {
            read();
        } catch (ProxyHeaderException e) {
            refuse(e);
        } catch (IOException e) {
            close("io-error");
        }
    }

    /** Reads until the header is whole, the socket has nothing more for now, or it ended. */
    private void read() throws IOException, ProxyHeaderException {
        ByteBuffer buffer = reactor.readBuffer;
        while (true) {
            buffer.clear();
            int n = socket.read(buffer);
            if (n < 0) {
                throw parser.ended();
            }
            if (n == 0) {
                return;
            }
            int taken = parser.feed(buffer.array(), 0, n);
            reactor.counters.bytesRead += taken; // the bytes past the header are counted as the connection reads them
            if (parser.done()) {
                handOver(taken < n ? Arrays.copyOfRange(buffer.array(), taken, n) : null);
                return;
            }
        }
    }

    /** The header is whole: the listener's connection takes the socket, and {@code early} bytes if any. */
    private void handOver(byte[] early) throws IOException {
        reactor.wheel.cancel(this);
        Origin origin = Origin.proxied(socket, parser.result());
        if (reactor.events.on()) {
            reactor.events.emit("proxy", id, "version=" + parser.result().version() + " remote=" + origin.remote()
                    + " local=" + origin.local() + " peer=" + Origin.address(socket, true));
        }
        Reactor.Attachment next = this.next.open(reactor, socket, id, origin, early);
        state = State.HANDED_OVER;
        reactor.handOver(this, next, key);
        next.opened(key);
        if (reactor.isDraining()) {
            next.drain();
        }
        if (early != null) {
            next.onReady(key); // the bytes past the header wait in the channel: no readiness will announce them
        }
    }

    @Override
    protected void expire() {
        if (state == State.READING) {
            long millis = (reactor.now - adopted) / 1_000_000;
            refuse(new ProxyHeaderException(Refusal.PROXY_HEADER_TIMEOUT, "after " + millis + " ms in "
                    + parser.state()));
        }
    }

    /** Counts, reports and logs the refusal, then closes without a byte. */
    private void refuse(ProxyHeaderException refusal) {
        Refusal rule = refusal.rule();
        Counters counters = reactor.counters;
        counters.refused(rule);
        if (rule == Refusal.PROXY_HEADER_TIMEOUT) {
            counters.timeouts++;
        } else if (rule != Refusal.PROXY_SOURCE_UNTRUSTED) {
            counters.protocolErrors++;
        }
        SocketAddress peer = Origin.address(socket, true);
        if (reactor.events.on()) {
            reactor.events.emit("reject", id, "status=0 reason=\"" + rule.reason(null) + "\" rule=" + rule.name()
                    + " detail=\"" + refusal.getMessage() + "\" peer=" + peer);
        }
        if (reactor.accessLog != null) {
            LogEntry entry = new LogEntry();
            entry.connectionId = id;
            entry.peer = peer instanceof InetSocketAddress inet ? inet : null;
            entry.rule = rule.name();
            entry.durationNanos = reactor.now - adopted;
            entry.endWallMillis = reactor.accessLog.clock().millis();
            reactor.accessLog.offer(entry);
        }
        close("proxy-refused");
    }

    @Override
    public void flushOutput() {
        // nothing is ever written before the header is whole
    }

    /**
     * The server stops: a header on its way is still read (the connection then drains as any idle one: a request
     * already sent is answered); the reactor's stop closes whatever is left at the end of the grace.
     */
    @Override
    public void drain() {
    }

    @Override
    public void close(String reason) {
        if (state != State.READING) {
            return;
        }
        state = State.CLOSED;
        reactor.wheel.cancel(this);
        if (key != null) {
            key.cancel();
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        reactor.closed(this);
    }
}
