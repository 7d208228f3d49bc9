package dev.fleche.perf.loadgen;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Opens N keep-alive connections to an HTTP/1.1 server, sends one {@code GET <path>} on each, reads the full
 * response, then keeps all of them open and idle until told to close.
 *
 * <pre>
 * java -cp loadgen.jar dev.fleche.perf.loadgen.IdleConnections HOST PORT [N] [options]
 *   N                     connections to open (default 10000)
 *   --path P              request path (default /hello)
 *   --expect-body S       count responses whose body is not S (default: no check)
 *   --per-address M       at most M connections per local source address (default 5000); when N > M the
 *                         client sockets are bound to 127.0.0.2, 127.0.0.3, ... so ephemeral ports do not run
 *                         short (only for a loopback target)
 *   --inflight C          at most C connections being set up at once (default 256), so the server's accept
 *                         backlog is not overrun
 *   --open-timeout S      give up opening after S seconds (default 120); whatever is open by then stays open
 *   --hold S              keep the connections open S seconds, or until a line arrives on stdin, then close
 *                         (without --hold: until a line or end of input on stdin)
 *   --max-hold S          upper bound on the hold in any case (default 3600)
 * </pre>
 *
 * Prints {@code OPEN <n>} (connections open with a complete response) once set up, then, when closing,
 * {@code STILL_OPEN <m>} (connections the server had not closed meanwhile) and {@code CLOSED <n>}. Diagnostics go
 * to stderr. Exit status 0 when all N opened with a good response, 2 when some did not open, 3 when some
 * response had a status other than 200 (or, with --expect-body, another body).
 */
public final class IdleConnections {

    private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};

    private IdleConnections() {
    }

    /** Per-connection state while the single request/response exchange runs. */
    private static final class Conn {
        final SocketChannel ch;
        ByteBuffer out;
        ByteBuffer in = ByteBuffer.allocate(1024);

        Conn(SocketChannel ch, ByteBuffer request) {
            this.ch = ch;
            this.out = request.duplicate();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || "--help".equals(args[0]) || "-h".equals(args[0])) {
            System.err.println("usage: IdleConnections HOST PORT [N] [--path P] [--expect-body S] [--per-address M]"
                    + " [--inflight C] [--open-timeout S] [--hold S] [--max-hold S]");
            System.exit(args.length < 2 ? 1 : 0);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int n = 10_000;
        String path = "/hello";
        String expectBody = null;
        int perAddress = 5_000;
        int inflight = 256;
        long openTimeoutS = 120;
        long holdS = -1;
        long maxHoldS = 3600;
        for (int i = 2; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--path": path = args[++i]; break;
                case "--expect-body": expectBody = args[++i]; break;
                case "--per-address": perAddress = Integer.parseInt(args[++i]); break;
                case "--inflight": inflight = Integer.parseInt(args[++i]); break;
                case "--open-timeout": openTimeoutS = Long.parseLong(args[++i]); break;
                case "--hold": holdS = Long.parseLong(args[++i]); break;
                case "--max-hold": maxHoldS = Long.parseLong(args[++i]); break;
                default:
                    if (a.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    n = Integer.parseInt(a);
            }
        }

        InetSocketAddress target = new InetSocketAddress(host, port);
        List<InetAddress> sources = sourceAddresses(target, n, perAddress);
        ByteBuffer request = ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nUser-Agent: fleche-idle\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] expected = expectBody == null ? null : expectBody.getBytes(StandardCharsets.UTF_8);

        List<SocketChannel> open = new ArrayList<>(n);
        int started = 0;
        int active = 0;
        int failed = 0;
        int badStatus = 0;
        int badBody = 0;
        String firstError = null;
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(openTimeoutS);
        long lastProgress = t0;

        try (Selector selector = Selector.open()) {
            while ((started < n || active > 0) && System.nanoTime() < deadline) {
                while (started < n && active < inflight) {
                    SocketChannel ch = SocketChannel.open();
                    try {
                        ch.configureBlocking(false);
                        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        if (!sources.isEmpty()) {
                            ch.bind(new InetSocketAddress(sources.get(started / perAddress), 0));
                        }
                        Conn c = new Conn(ch, request);
                        if (ch.connect(target)) {
                            ch.register(selector, SelectionKey.OP_WRITE, c);
                        } else {
                            ch.register(selector, SelectionKey.OP_CONNECT, c);
                        }
                        active++;
                    } catch (IOException e) {
                        failed++;
                        if (firstError == null) {
                            firstError = "connect #" + started + ": " + e;
                        }
                        ch.close();
                    }
                    started++;
                }
                selector.select(200);
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey key = it.next();
                    it.remove();
                    Conn c = (Conn) key.attachment();
                    try {
                        if (key.isConnectable()) {
                            c.ch.finishConnect();
                            key.interestOps(SelectionKey.OP_WRITE);
                        }
                        if (key.isValid() && key.isWritable()) {
                            c.ch.write(c.out);
                            if (!c.out.hasRemaining()) {
                                c.out = null;
                                key.interestOps(SelectionKey.OP_READ);
                            }
                        }
                        if (key.isValid() && key.isReadable()) {
                            if (!c.in.hasRemaining()) {
                                ByteBuffer bigger = ByteBuffer.allocate(c.in.capacity() * 2);
                                c.in.flip();
                                bigger.put(c.in);
                                c.in = bigger;
                            }
                            int r = c.ch.read(c.in);
                            if (r < 0) {
                                throw new IOException("closed by server before a full response ("
                                        + c.in.position() + " bytes read)");
                            }
                            int verdict = complete(c.in, expected);
                            if (verdict != 0) {
                                if (verdict == 2) {
                                    badStatus++;
                                } else if (verdict == 3) {
                                    badBody++;
                                }
                                c.in = null;
                                key.interestOps(0); // idle from now on; kept registered, costs nothing
                                open.add(c.ch);
                                active--;
                            }
                        }
                    } catch (IOException e) {
                        failed++;
                        active--;
                        if (firstError == null) {
                            firstError = e.toString();
                        }
                        key.cancel();
                        c.ch.close();
                    }
                }
                long now = System.nanoTime();
                if (now - lastProgress > TimeUnit.SECONDS.toNanos(5)) {
                    lastProgress = now;
                    System.err.printf(Locale.ROOT, "idle: %d open, %d in flight, %d failed (%.1f s)%n",
                            open.size(), active, failed, (now - t0) / 1e9);
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            int unfinished = n - open.size() - failed;
            System.err.printf(Locale.ROOT,
                    "idle: opened %d of %d in %.2f s (%d failed, %d unfinished at timeout, %d non-200, "
                            + "%d wrong body, %d source address(es))%n",
                    open.size(), n, secs, failed, unfinished, badStatus, badBody, Math.max(1, sources.size()));
            if (firstError != null) {
                System.err.println("idle: first error: " + firstError);
            }
            System.out.println("OPEN " + open.size());
            System.out.flush();

            waitForRelease(holdS, maxHoldS);

            int stillOpen = 0;
            ByteBuffer probe = ByteBuffer.allocate(256);
            for (SocketChannel ch : open) {
                probe.clear();
                try {
                    if (ch.read(probe) >= 0) {
                        stillOpen++;
                    }
                } catch (IOException e) {
                    // reset by the server: not open
                }
            }
            System.out.println("STILL_OPEN " + stillOpen);
            for (SocketChannel ch : open) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            System.out.println("CLOSED " + open.size());
            System.out.flush();
            System.exit(open.size() != n ? 2 : badStatus + badBody > 0 ? 3 : 0);
        }
    }

    /**
     * Returns 0 while the response is incomplete, 1 when complete and fine, 2 when complete with a non-200 status,
     * 3 when complete with an unexpected body. Understands Content-Length and chunked responses.
     */
    private static int complete(ByteBuffer in, byte[] expected) {
        byte[] a = in.array();
        int len = in.position();
        int headerEnd = indexOf(a, 0, len, HEADER_END);
        if (headerEnd < 0) {
            return 0;
        }
        String head = new String(a, 0, headerEnd, StandardCharsets.ISO_8859_1);
        int bodyStart = headerEnd + 4;
        long contentLength = -1;
        boolean chunked = false;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-length")) {
                contentLength = Long.parseLong(value);
            } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        byte[] body;
        if (chunked) {
            int end = indexOf(a, bodyStart, len, "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            if (end < 0) {
                return 0;
            }
            body = null; // not checked for chunked responses
        } else {
            long cl = Math.max(0, contentLength);
            if (len - bodyStart < cl) {
                return 0;
            }
            body = java.util.Arrays.copyOfRange(a, bodyStart, bodyStart + (int) cl);
        }
        boolean ok200 = head.startsWith("HTTP/1.1 200") || head.startsWith("HTTP/1.0 200");
        if (!ok200) {
            return 2;
        }
        if (expected != null && body != null && !java.util.Arrays.equals(expected, body)) {
            return 3;
        }
        return 1;
    }

    private static int indexOf(byte[] a, int from, int to, byte[] needle) {
        outer:
        for (int i = from; i <= to - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (a[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Local source addresses 127.0.0.2.. when more than perAddress connections go to a loopback target. */
    private static List<InetAddress> sourceAddresses(InetSocketAddress target, int n, int perAddress)
            throws IOException {
        List<InetAddress> sources = new ArrayList<>();
        if (n <= perAddress) {
            return sources;
        }
        if (target.getAddress() == null || !target.getAddress().isLoopbackAddress()
                || target.getAddress().getAddress().length != 4) {
            System.err.println("idle: more than " + perAddress + " connections to a non-IPv4-loopback target:"
                    + " not spreading source addresses");
            return sources;
        }
        int k = (n + perAddress - 1) / perAddress;
        if (k > 250) {
            throw new IllegalArgumentException("too many source addresses needed: " + k);
        }
        for (int i = 0; i < k; i++) {
            sources.add(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (2 + i)}));
        }
        return sources;
    }

    /** Waits for a line on stdin, or holdS seconds when given (stdin end does not end a timed hold). */
    private static void waitForRelease(long holdS, long maxHoldS) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        boolean timed = holdS >= 0;
        Thread stdin = new Thread(() -> {
            try {
                BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String line = r.readLine();
                if (line != null || !timed) {
                    release.countDown();
                }
            } catch (IOException e) {
                if (!timed) {
                    release.countDown();
                }
            }
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        long waitS = timed ? Math.min(holdS, maxHoldS) : maxHoldS;
        if (!release.await(waitS, TimeUnit.SECONDS) && !timed) {
            System.err.println("idle: no line on stdin within --max-hold " + maxHoldS + " s, closing");
        }
    }
}
