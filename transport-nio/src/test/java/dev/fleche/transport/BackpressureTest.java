package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Flow control both ways with 256 MiB bodies: a client that does not read must block the handler's writer, and
 * a handler that does not read must stop the server reading the socket. Either way memory stays bounded and every
 * byte arrives, in order, once the slow side catches up.
 */
class BackpressureTest {
    private static final long TOTAL = 256L << 20;
    /** What may be buffered (socket buffers, outbound queue, inbound window) before flow control must act. */
    private static final long BOUND = 16L << 20;
    private static final int BLOCK = 64 * 1024;
    /** A prime period, so that the pattern never lines up with a buffer size. */
    private static final int PERIOD = 251;
    /** {@code PATTERN[i] == i % PERIOD}; the body from position {@code p} is PATTERN from {@code p % PERIOD}. */
    private static final byte[] PATTERN = new byte[BLOCK + PERIOD];

    static {
        for (int i = 0; i < PATTERN.length; i++) {
            PATTERN[i] = (byte) (i % PERIOD);
        }
    }

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
    }

    private static long heapUsed() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /** Checks {@code bytes[offset, offset+length)} against the pattern from body position {@code position}. */
    private static void verify(byte[] bytes, int offset, int length, long position) {
        int expected = (int) (position % PERIOD);
        for (int i = 0; i < length; i++) {
            if (bytes[offset + i] != (byte) expected) {
                fail("body byte " + (position + i) + " is " + bytes[offset + i] + ", expected " + expected);
            }
            if (++expected == PERIOD) {
                expected = 0;
            }
        }
    }

    private InetSocketAddress address() {
        return new InetSocketAddress(RawClient.HOST, server.port());
    }

    // ---------------------------------------------------------------- responses: the client does not read

    @Test
    void clientThatDoesNotReadBlocksTheResponseWriter() throws Exception {
        AtomicLong written = new AtomicLong();
        AtomicReference<Thread> writer = new AtomicReference<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        server = HttpServer.create(RawClient.loopback().build(), exchange -> workers.execute(() -> {
            writer.set(Thread.currentThread());
            HttpFields fields = new HttpFields().add("Content-Type", "application/octet-stream");
            try (OutputStream body = exchange.startResponse(200, fields, TOTAL)) {
                for (long at = 0; at < TOTAL; at += BLOCK) {
                    body.write(PATTERN, (int) (at % PERIOD), BLOCK);
                    written.addAndGet(BLOCK);
                }
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        })).start();
        long heapBefore = heapUsed();
        try (SocketChannel client = SocketChannel.open(address()); Selector selector = Selector.open()) {
            client.configureBlocking(false);
            ByteBuffer request = ByteBuffer.wrap("GET /big HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(ISO_8859_1));
            while (request.hasRemaining()) {
                client.write(request); // a fresh socket takes these few bytes at once
            }

            Await.until("the handler starts writing", () -> writer.get() != null);
            Await.writerBlocked(writer.get(), written::get, () -> server.metrics().bytesWritten());
            long blockedAt = written.get();
            System.gc(); // informational only: what is retained while the writer is blocked
            System.out.printf("response writer blocked after %,d bytes; server wrote %,d to the socket; "
                    + "heap used after GC %,d (before the request %,d)%n",
                    blockedAt, server.metrics().bytesWritten(), heapUsed(), heapBefore);
            assertTrue(blockedAt < BOUND, "the writer got " + blockedAt + " bytes out to a client that reads nothing");
            assertTrue(server.metrics().bytesWritten() < BOUND);
            assertFalse(done.isDone());

            client.register(selector, SelectionKey.OP_READ);
            long heapPeak = readResponse(client, selector);
            System.out.printf("heap used: peak %,d while streaming 256 MiB, garbage included (informational)%n",
                    heapPeak);
        }
        done.get(10, SECONDS);
        assertEquals(TOTAL, written.get());
    }

    /** Reads the head, then the whole body checking every byte; returns the peak heap use seen meanwhile. */
    private long readResponse(SocketChannel client, Selector selector) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        StringBuilder head = new StringBuilder();
        long body = 0;
        long heapPeak = 0;
        int reads = 0;
        while (body < TOTAL) {
            if (selector.select(5_000) == 0) {
                fail("no response bytes for 5 s after " + body + " body bytes");
            }
            selector.selectedKeys().clear();
            buffer.clear();
            int n = client.read(buffer);
            if (n < 0) {
                fail("EOF after " + body + " body bytes");
            }
            int at = 0;
            byte[] bytes = buffer.array();
            while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
                if (at == n) {
                    break;
                }
                head.append((char) (bytes[at++] & 0xFF));
            }
            if (at < n) {
                verify(bytes, at, n - at, body);
                body += n - at;
            }
            if (++reads % 64 == 0) {
                heapPeak = Math.max(heapPeak, heapUsed());
            }
        }
        assertEquals("""
                HTTP/1.1 200 OK\r
                Content-Type: application/octet-stream\r
                Date: <date>\r
                Content-Length: 268435456\r
                \r
                """, RawClient.normalize(head.toString()));
        assertEquals(TOTAL, body);
        return heapPeak;
    }

    // ---------------------------------------------------------------- requests: the handler does not read

    @Test
    void handlerThatDoesNotReadStopsTheServerReading() throws Exception {
        CountDownLatch mayRead = new CountDownLatch(1);
        CompletableFuture<Long> received = new CompletableFuture<>();
        ServerOptions options = RawClient.loopback().maxBodyBytes(1L << 30).build();
        server = HttpServer.create(options, exchange -> workers.execute(() -> {
            try {
                assertTrue(mayRead.await(30, SECONDS));
                InputStream in = exchange.requestBody();
                byte[] buffer = new byte[BLOCK];
                long position = 0;
                for (int n; (n = in.read(buffer)) > 0; position += n) {
                    verify(buffer, 0, n, position);
                }
                exchange.respond(200, new HttpFields(), ("received " + position + "\n").getBytes(ISO_8859_1));
                received.complete(position);
            } catch (Throwable t) {
                received.completeExceptionally(t);
            }
        })).start();
        try (SocketChannel client = SocketChannel.open(address()); Selector selector = Selector.open()) {
            client.configureBlocking(false);
            SelectionKey key = client.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer head = ByteBuffer.wrap(("PUT /upload HTTP/1.1\r\nHost: test\r\nContent-Length: " + TOTAL
                    + "\r\n\r\n").getBytes(ISO_8859_1));
            while (head.hasRemaining()) {
                client.write(head);
            }

            // Write until the socket stays unwritable for 2 s: the server has stopped reading.
            long sent = 0;
            long deadline = System.nanoTime() + SECONDS.toNanos(30);
            while (true) {
                sent += writeWhatFits(client, sent);
                if (selector.select(2_000) == 0) {
                    break;
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - deadline > 0 || sent == TOTAL) {
                    fail("the server kept reading a body nobody reads: " + sent + " bytes sent");
                }
            }
            long read = server.metrics().bytesRead();
            System.out.printf("upload stalled after %,d bytes sent; server read %,d; heap used %,d%n",
                    sent, read, heapUsed());
            assertTrue(read < BOUND, "the server read " + read + " bytes that no handler asked for");
            assertFalse(received.isDone());

            mayRead.countDown();
            while (sent < TOTAL) {
                if (selector.select(5_000) == 0) {
                    fail("the server did not resume reading: " + sent + " bytes sent");
                }
                selector.selectedKeys().clear();
                sent += writeWhatFits(client, sent);
            }
            assertEquals(TOTAL, received.get(10, SECONDS));

            key.interestOps(SelectionKey.OP_READ);
            String expected = "HTTP/1.1 200 OK\r\nDate: <date>\r\nContent-Length: 19\r\n\r\nreceived 268435456\n";
            StringBuilder response = new StringBuilder();
            ByteBuffer buffer = ByteBuffer.allocate(1024);
            while (response.length() < expected.length()) {
                if (selector.select(5_000) == 0) {
                    fail("no response: " + response);
                }
                selector.selectedKeys().clear();
                buffer.clear();
                if (client.read(buffer) < 0) {
                    fail("EOF: " + response);
                }
                response.append(new String(buffer.array(), 0, buffer.position(), ISO_8859_1));
            }
            assertEquals(expected, RawClient.normalize(response.toString()));
        }
    }

    /** Writes body bytes from position {@code sent} until the socket takes no more; returns how many. */
    private static long writeWhatFits(SocketChannel client, long sent) throws IOException {
        long total = 0;
        while (sent + total < TOTAL) {
            long position = sent + total;
            int length = (int) Math.min(BLOCK, TOTAL - position);
            int n = client.write(ByteBuffer.wrap(PATTERN, (int) (position % PERIOD), length));
            if (n == 0) {
                break;
            }
            total += n;
        }
        return total;
    }
}
