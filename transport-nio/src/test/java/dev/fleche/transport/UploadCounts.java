package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import dev.fleche.transport.testing.TestCertificates;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;

/**
 * Counts what an upload costs the transport per MiB, without timing anything (so it holds on a busy machine): an
 * upload of N MiB streamed to a handler that reads it on its own thread with a 1 MiB buffer (as an
 * {@code InputStream} resource under Jersey does), over HTTP/1.1 with {@code Content-Length} and chunked, over TLS,
 * and over HTTP/2 (TLS, ALPN). For the reactor thread and the reading thread: bytes allocated
 * ({@code ThreadMXBean.getThreadAllocatedBytes}) and voluntary context switches (from
 * {@code /proc/self/task/TID/status}: each is a time the thread blocked and was woken, i.e. a hand-off to it).
 *
 * <pre>{@code java -cp transport-nio/target/classes:transport-nio/target/test-classes dev.fleche.transport.UploadCounts 256 8}</pre>
 *
 * {@link UploadCountsTest} runs it small and holds the reactor's allocation per MiB to a bound.
 */
public final class UploadCounts {
    /** The figures of one upload, per MiB of body. */
    record Row(String mode, long mib, double reactorBytes, double readerBytes, double reactorSwitches,
               double readerSwitches) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "| %-18s | %5d | %12.0f | %12.0f | %9.1f | %9.1f |", mode, mib,
                    reactorBytes, readerBytes, reactorSwitches, readerSwitches);
        }
    }

    static final String HEADER = """
            | mode               |   MiB | reactor B/MiB | reader B/MiB | reactor cs/MiB | reader cs/MiB |
            |---|---|---|---|---|---|""";

    private static final int BLOCK = 64 * 1024;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Method ALLOCATED;

    static {
        try {
            ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes",
                    long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private UploadCounts() {
    }

    /** {@code UploadCounts [MIB [WARMUP_MIB]]}: 256 MiB per mode by default, after a warm-up of 8 MiB each. */
    public static void main(String[] args) throws Exception {
        long mib = args.length > 0 ? Long.parseLong(args[0]) : 256;
        long warmup = args.length > 1 ? Long.parseLong(args[1]) : 8;
        if (warmup > 0) {
            run(warmup); // class loading, the JIT, the first handshake: not the upload's cost
        }
        System.out.println(HEADER);
        for (Row row : run(mib)) {
            System.out.println(row);
        }
    }

    /** Every mode once, {@code mib} MiB each. */
    static List<Row> run(long mib) throws Exception {
        List<Row> rows = new ArrayList<>();
        rows.add(upload("HTTP/1.1 length", mib, false, false));
        rows.add(upload("HTTP/1.1 chunked", mib, true, false));
        rows.add(upload("HTTP/1.1 TLS", mib, false, true));
        rows.add(uploadH2(mib));
        return rows;
    }

    /** What the reading thread measured of itself. */
    private record Reader(long bytes, long allocated, long switches) {
    }

    /** A server whose handler reads the body on a thread of its own and answers the count; one reactor. */
    private static HttpServer server(TlsOptions tls, List<CompletableFuture<Reader>> readers) throws IOException {
        ServerOptions.Builder options = ServerOptions.builder().address("127.0.0.1", 0).reactors(1);
        if (tls != null) {
            options.tls(tls);
        }
        return HttpServer.create(options.build(), exchange -> {
            CompletableFuture<Reader> done = new CompletableFuture<>();
            readers.add(done);
            Thread reader = new Thread(() -> {
                byte[] buffer = new byte[1 << 20]; // the handler's own, before counting starts
                long switches = switches(Path.of("/proc/thread-self/status"));
                long allocated = allocated(Thread.currentThread().getId());
                long total = 0;
                try (InputStream in = exchange.requestBody()) {
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        total += n;
                    }
                } catch (IOException e) {
                    done.completeExceptionally(e);
                    exchange.abort();
                    return;
                }
                long allocatedNow = allocated(Thread.currentThread().getId()); // before reading /proc allocates
                Reader measured = new Reader(total, allocatedNow - allocated,
                        switches(Path.of("/proc/thread-self/status")) - switches);
                exchange.respond(200, new HttpFields(0), Long.toString(total).getBytes(ISO_8859_1));
                done.complete(measured);
            }, "upload-reader");
            reader.start();
        }).start();
    }

    private static Row upload(String mode, long mib, boolean chunked, boolean tls) throws Exception {
        TestCertificates certificates = tls ? TestCertificates.get() : null;
        List<CompletableFuture<Reader>> readers = Collections.synchronizedList(new ArrayList<>());
        HttpServer server = server(tls ? TlsOptions.builder(certificates.serverContext(
                TestCertificates.ServerKey.EC_P256)).build() : null, readers);
        try {
            long bytes = mib << 20;
            Socket socket = tls ? certificates.clientContext().getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), server.port())
                    : new Socket(InetAddress.getLoopbackAddress(), server.port());
            try (socket) {
                socket.setSoTimeout(60_000);
                if (socket instanceof SSLSocket ssl) {
                    ssl.startHandshake();
                }
                Thread reactor = reactorThread(server);
                long[] before = {allocated(reactor.getId()), switches(taskStatus(reactor))};
                OutputStream out = socket.getOutputStream();
                out.write(("POST /upload HTTP/1.1\r\nHost: test\r\n" + (chunked ? "Transfer-Encoding: chunked"
                        : "Content-Length: " + bytes) + "\r\n\r\n").getBytes(ISO_8859_1));
                byte[] block = new byte[BLOCK];
                byte[] size = (Integer.toHexString(BLOCK) + "\r\n").getBytes(ISO_8859_1);
                for (long sent = 0; sent < bytes; sent += BLOCK) {
                    if (chunked) {
                        out.write(size);
                    }
                    out.write(block);
                    if (chunked) {
                        out.write('\r');
                        out.write('\n');
                    }
                }
                if (chunked) {
                    out.write("0\r\n\r\n".getBytes(ISO_8859_1));
                }
                out.flush();
                String answer = readAnswer(socket.getInputStream());
                if (!answer.endsWith("\r\n\r\n" + bytes)) {
                    throw new IllegalStateException(mode + ": " + answer);
                }
                long[] after = {allocated(reactor.getId()), switches(taskStatus(reactor))};
                Reader reader = readers.get(0).get(60, TimeUnit.SECONDS);
                return new Row(mode, mib, (after[0] - before[0]) / (double) mib, reader.allocated / (double) mib,
                        (after[1] - before[1]) / (double) mib, reader.switches / (double) mib);
            }
        } finally {
            server.stop(Duration.ZERO);
        }
    }

    private static Row uploadH2(long mib) throws Exception {
        TestCertificates certificates = TestCertificates.get();
        List<CompletableFuture<Reader>> readers = Collections.synchronizedList(new ArrayList<>());
        HttpServer server = server(TlsOptions.builder(certificates.serverContext(
                TestCertificates.ServerKey.EC_P256)).build(), readers);
        try {
            HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext())
                    .version(HttpClient.Version.HTTP_2).build();
            URI uri = URI.create("https://localhost:" + server.port() + "/upload");
            client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.discarding()); // connect
            readers.clear();
            Thread reactor = reactorThread(server);
            long[] before = {allocated(reactor.getId()), switches(taskStatus(reactor))};
            byte[] block = new byte[BLOCK];
            long bytes = mib << 20;
            Iterable<byte[]> blocks = () -> new java.util.Iterator<>() {
                private long left = bytes;

                @Override
                public boolean hasNext() {
                    return left > 0;
                }

                @Override
                public byte[] next() {
                    left -= BLOCK;
                    return block;
                }
            };
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri)
                    .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArrays(blocks),
                            bytes)).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.version() != HttpClient.Version.HTTP_2 || !answer.body().equals(Long.toString(bytes))) {
                throw new IllegalStateException("h2: " + answer.version() + " " + answer.body());
            }
            long[] after = {allocated(reactor.getId()), switches(taskStatus(reactor))};
            Reader reader = readers.get(0).get(60, TimeUnit.SECONDS);
            return new Row("HTTP/2 (TLS)", mib, (after[0] - before[0]) / (double) mib,
                    reader.allocated / (double) mib, (after[1] - before[1]) / (double) mib,
                    reader.switches / (double) mib);
        } finally {
            server.stop(Duration.ZERO);
        }
    }

    private static String readAnswer(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        int length = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return text.toString();
            }
            text.append((char) b);
            if (length < 0 && text.toString().endsWith("\r\n\r\n")) {
                String head = text.toString();
                int at = head.indexOf("Content-Length: ");
                length = Integer.parseInt(head.substring(at + 16, head.indexOf('\r', at)));
            }
            if (length >= 0 && text.length() - text.indexOf("\r\n\r\n") - 4 == length) {
                return text.toString();
            }
        }
    }

    /** The server's one reactor thread. */
    private static Thread reactorThread(HttpServer server) {
        String name = "fleche-reactor-" + server.port() + "-0";
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(name)) {
                return thread;
            }
        }
        throw new IllegalStateException("no thread " + name);
    }

    private static long allocated(long threadId) {
        try {
            return (Long) ALLOCATED.invoke(THREADS, threadId);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The {@code /proc} status file of {@code thread}: the task whose {@code comm} is the start of its name and which
     * is that thread (the reactor of one server: the only task of that name while the harness runs).
     */
    private static Path taskStatus(Thread thread) throws IOException {
        // A thread names its task when it starts running: a thread just started may not have yet (bounded wait).
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            try {
                return findTask(thread);
            } catch (IllegalStateException notYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw notYet;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
    }

    private static Path findTask(Thread thread) throws IOException {
        String comm = thread.getName().substring(0, Math.min(15, thread.getName().length()));
        Path found = null;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue; // a thread that ended while listed
                }
                if (name.equals(comm)) {
                    if (found != null) {
                        throw new IllegalStateException("two tasks named " + comm);
                    }
                    found = task.resolve("status");
                }
            }
        }
        if (found == null) {
            throw new IllegalStateException("no task named " + comm);
        }
        return found;
    }

    private static long switches(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException e) {
            return 0; // not Linux: switches are not counted
        }
        return 0;
    }
}
