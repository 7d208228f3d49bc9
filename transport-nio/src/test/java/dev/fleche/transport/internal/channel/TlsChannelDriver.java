package dev.fleche.transport.internal.channel;

import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.TlsOptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in reactor for {@link TlsChannel} tests: one thread owning a selector and a listening loopback socket;
 * each accepted socket gets a {@link TlsChannel} and an echo "connection" that writes back every application byte
 * it reads, reading into a buffer of {@code readBytes} (small ones take the channel's buffered-plaintext path).
 * It reads once per readiness, and again only while {@link TlsChannel#hasBufferedInput()} says so: a channel that
 * held bytes without saying so would hang a test.
 * What happens to each connection is recorded as futures the test awaits.
 */
final class TlsChannelDriver implements AutoCloseable {
    private static final int ECHO_QUEUE_BYTES = 128 * 1024;

    private final TlsOptions options;
    private final int readBytes;
    private final Executor tasks;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final LinkedBlockingQueue<Echo> accepted = new LinkedBlockingQueue<>();
    private final Thread loop;
    final PacketBufferPool pool;
    final AtomicInteger tasksRun = new AtomicInteger();
    private volatile boolean running = true;

    TlsChannelDriver(TlsOptions options, int readBytes, Executor tasks) throws IOException {
        this.options = options;
        this.readBytes = readBytes;
        this.tasks = task -> {
            tasksRun.incrementAndGet();
            tasks.execute(task);
        };
        this.pool = new PacketBufferPool(PacketBufferPool.recordBytes(options.sslContext()), 8);
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        loop = new Thread(this::run, "tls-driver");
        loop.setDaemon(true);
        loop.start();
    }

    int port() {
        return server.socket().getLocalPort();
    }

    /** The next connection the driver accepted, waiting up to 10 s. */
    Echo nextConnection() throws InterruptedException {
        Echo echo = accepted.poll(10, TimeUnit.SECONDS);
        if (echo == null) {
            throw new AssertionError("no connection accepted in 10 s");
        }
        return echo;
    }

    /** Runs {@code task} on the driver's thread. */
    void onLoop(Runnable task) {
        queue.add(task);
        selector.wakeup();
    }

    /** Runs {@code task} on the driver's thread and waits for its result. */
    <T> T onLoopAndWait(java.util.function.Supplier<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        onLoop(() -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    private void run() {
        try {
            while (running) {
                selector.select(1000);
                for (Runnable task; (task = queue.poll()) != null; ) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.channel() == server) {
                        accept();
                    } else {
                        ((Echo) key.attachment()).onReady();
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void accept() throws IOException {
        for (SocketChannel socket; (socket = server.accept()) != null; ) {
            socket.configureBlocking(false);
            Echo echo = new Echo(socket);
            accepted.add(echo);
            echo.updateInterest();
        }
    }

    /** Closes every channel on the loop, then stops the loop; fails if it does not stop within 10 s. */
    @Override
    public void close() throws IOException {
        try {
            onLoopAndWait(() -> {
                for (SelectionKey key : selector.keys()) {
                    if (key.attachment() instanceof Echo echo) {
                        echo.channel.close();
                    }
                }
                return null;
            });
            running = false;
            selector.wakeup();
            loop.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } catch (Exception e) {
            throw new IOException(e);
        } finally {
            server.close();
            selector.close();
        }
        if (loop.isAlive()) {
            throw new AssertionError("the driver's loop did not stop within 10 s");
        }
    }

    /** One accepted connection: a TLS channel that echoes, and what happened to it. */
    final class Echo implements ConnectionChannel.Listener {
        final TlsChannel channel;
        private final SelectionKey key;
        private final ByteBuffer readBuffer = ByteBuffer.allocate(readBytes);
        /** Bytes read and not yet written back, in read mode. */
        private final ByteBuffer echo = ByteBuffer.allocate(ECHO_QUEUE_BYTES).limit(0);
        final CompletableFuture<TlsInfo> handshake = new CompletableFuture<>();
        final CompletableFuture<IOException> failure = new CompletableFuture<>();
        /** Completes when a read returned -1. */
        final CompletableFuture<Void> peerEnded = new CompletableFuture<>();
        /** Completes when the channel is closed after the peer ended and everything was flushed. */
        final CompletableFuture<Void> closed = new CompletableFuture<>();
        volatile long bytesEchoed;
        private boolean inputEnded;
        private boolean refused;

        Echo(SocketChannel socket) throws IOException {
            key = socket.register(selector, 0, this);
            channel = new TlsChannel(socket, TlsChannel.serverEngine(options, false), pool, tasks, TlsChannelDriver.this::onLoop,
                    this);
        }

        @Override
        public void channelReady() {
            onReady();
        }

        /** Queues {@code data} (at most the echo queue's room) and writes it in one call, on the loop. */
        void send(byte[] data) {
            onLoop(() -> {
                echo.compact();
                echo.put(data).flip();
                try {
                    writeEcho();
                } catch (IOException e) {
                    fail(e);
                }
                updateInterest();
            });
        }

        /** Sends {@code close_notify} (from the test thread). */
        void shutdownOutput() {
            onLoop(() -> {
                try {
                    channel.shutdownOutput();
                    updateInterest();
                } catch (IOException e) {
                    fail(e);
                }
            });
        }

        void onReady() {
            if (!key.isValid()) {
                return;
            }
            try {
                doOnReady();
            } catch (PlaintextRequestException e) {
                refused = true;
                failure.complete(e);
                try {
                    finishIfFlushed();
                } catch (IOException again) {
                    fail(again);
                }
            } catch (IOException e) {
                fail(e);
            }
        }

        private void doOnReady() throws IOException {
            if (refused) {
                finishIfFlushed();
                return;
            }
            writeEcho();
            while (!inputEnded && echo.capacity() - echo.limit() >= readBytes) {
                readBuffer.clear();
                int n = channel.read(readBuffer);
                if (n < 0) {
                    inputEnded = true;
                    peerEnded.complete(null);
                    break;
                }
                if (n > 0) {
                    readBuffer.flip();
                    echo.compact();
                    echo.put(readBuffer).flip();
                    writeEcho();
                }
                if (!channel.hasBufferedInput()) {
                    break; // read again on the next readiness only: the channel's contract, as a connection uses it
                }
            }
            if (channel.tlsInfo() != null) {
                handshake.complete(channel.tlsInfo());
            }
            if (inputEnded && !echo.hasRemaining()) {
                finishIfFlushed();
                return;
            }
            updateInterest();
        }

        private void writeEcho() throws IOException {
            if (!channel.flush()) {
                return;
            }
            while (echo.hasRemaining()) {
                int n = channel.write(echo);
                bytesEchoed += n;
                if (n == 0 || !channel.flush()) {
                    break;
                }
            }
            echo.compact().flip();
        }

        private void finishIfFlushed() throws IOException {
            if (channel.flush()) {
                channel.close();
                key.cancel();
                closed.complete(null);
            } else {
                key.interestOps(SelectionKey.OP_WRITE);
            }
        }

        void updateInterest() {
            if (!key.isValid()) {
                return;
            }
            int wanted = (inputEnded ? 0 : SelectionKey.OP_READ) | (echo.hasRemaining() ? SelectionKey.OP_WRITE : 0);
            key.interestOps(channel.interestOps(wanted));
        }

        private void fail(IOException e) {
            failure.complete(e);
            channel.close();
            key.cancel();
            closed.complete(null);
        }
    }
}
