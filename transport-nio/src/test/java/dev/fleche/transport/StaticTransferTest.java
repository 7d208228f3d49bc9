package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.testing.TestCertificates;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How static files travel: on plain HTTP/1.1 as file regions ({@code transferTo}) — taken in many partial
 * transfers by a small socket buffer, pipelined behind and before other responses, released when a client stops
 * reading, cut short when the file changes size while it is sent; over TLS and HTTP/2 read off the reactor and paced
 * ({@code PacedBody}), also cut short by a change; and {@code curl -C -} resuming a download with a {@code Range}.
 */
class StaticTransferTest {
    @TempDir
    Path root;
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void start(ServerOptions.Builder options) throws IOException {
        server = HttpServer.create(options.staticContent(StaticContent.directory("/files/", root).build()).build(),
                exchange -> exchange.respond(404, new HttpFields(0), new byte[0])).start();
    }

    /** A file of {@code size} bytes whose content depends on each byte's position; returns its CRC-32. */
    private long file(String name, long size) throws IOException {
        CRC32 crc = new CRC32();
        try (FileChannel out = FileChannel.open(root.resolve(name), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer block = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < size; ) {
                block.clear();
                int n = (int) Math.min(block.capacity(), size - at);
                for (int i = 0; i < n; i++) {
                    long p = at + i;
                    block.put((byte) (p * 31 + (p >>> 11)));
                }
                block.flip();
                crc.update(block.duplicate());
                while (block.hasRemaining()) {
                    out.write(block);
                }
                at += n;
            }
        }
        return crc.getValue();
    }

    private static Socket connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        socket.setSoTimeout(20_000);
        return socket;
    }

    /** The head of a response, up to its blank line. */
    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("EOF in the head: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                return Long.parseLong(line.substring(15).trim());
            }
        }
        throw new AssertionError("no Content-Length: " + head);
    }

    /** Reads {@code length} bytes, or to EOF; returns the CRC-32 and count of what came. */
    private static long[] body(InputStream in, long length) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        while (total < length) {
            int n;
            try {
                n = in.read(buffer, 0, (int) Math.min(buffer.length, length - total));
            } catch (IOException e) {
                break; // reset, or a TLS stream cut: the body ends here
            }
            if (n < 0) {
                break;
            }
            crc.update(buffer, 0, n);
            total += n;
        }
        return new long[] {crc.getValue(), total};
    }

    private static void send(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(ISO_8859_1));
        out.flush();
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }

    @Test
    void aLargeFileArrivesWholeInManyPartialTransfersAndTheConnectionGoesOn() throws Exception {
        long crc = file("big.bin", 16L << 20);
        file("small.bin", 1000);
        start(RawClient.loopback());
        try (Socket socket = connect(server.port(), 16 * 1024)) {
            InputStream in = socket.getInputStream();
            send(socket, get("/files/big.bin") + get("/files/small.bin")); // pipelined: in order
            String head = head(in);
            assertEquals(16L << 20, contentLength(head));
            long[] got = body(in, 16L << 20);
            assertEquals(16L << 20, got[1]);
            assertEquals(crc, got[0]);
            String second = head(in);
            assertTrue(second.startsWith("HTTP/1.1 200 OK\r\n"), second);
            assertEquals(1000, body(in, contentLength(second))[1]);
        }
        assertEquals(0, openDescriptorsOf(root.resolve("big.bin")));
    }

    @Test
    void aClientThatStopsReadingIsClosedAndTheFileReleased() throws Exception {
        try (FileChannel sparse = FileChannel.open(root.resolve("huge.bin"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            sparse.truncate(0).position((256L << 20) - 1).write(ByteBuffer.wrap(new byte[1])); // 256 MiB, sparse
        }
        start(RawClient.loopback().writeStallTimeout(Duration.ofMillis(500)).minResponseRate(null));
        try (Socket socket = connect(server.port(), 8 * 1024)) {
            send(socket, get("/files/huge.bin"));
            Await.until("the write-stall timeout", Duration.ofSeconds(20), () -> server.metrics().timeouts() == 1);
            Await.until("the file closed", Duration.ofSeconds(10),
                    () -> openDescriptorsOf(root.resolve("huge.bin")) == 0);
        }
    }

    @Test
    void aFileThatShrinksWhileSentIsCutShort() throws Exception {
        long size = 48L << 20;
        file("shrinks.bin", size);
        start(RawClient.loopback());
        try (Socket socket = connect(server.port(), 64 * 1024)) {
            InputStream in = socket.getInputStream();
            send(socket, get("/files/shrinks.bin"));
            assertEquals(size, contentLength(head(in)));
            assertEquals(1 << 20, body(in, 1 << 20)[1]);
            try (FileChannel file = FileChannel.open(root.resolve("shrinks.bin"), StandardOpenOption.WRITE)) {
                file.truncate(2 << 20);
            }
            long rest = body(in, size)[1];
            assertTrue((1 << 20) + rest < size, "cut short, not padded: " + rest);
            assertEquals(-1, in.read(), "the connection closed");
        }
    }

    @Test
    void aFileThatGrowsWhileSentIsCutShort() throws Exception {
        long size = 48L << 20;
        file("grows.bin", size);
        start(RawClient.loopback());
        try (Socket socket = connect(server.port(), 64 * 1024)) {
            InputStream in = socket.getInputStream();
            send(socket, get("/files/grows.bin"));
            assertEquals(size, contentLength(head(in)));
            assertEquals(1 << 20, body(in, 1 << 20)[1]);
            try (FileChannel file = FileChannel.open(root.resolve("grows.bin"), StandardOpenOption.APPEND)) {
                file.write(ByteBuffer.wrap(new byte[10]));
            }
            long rest = body(in, size)[1];
            assertTrue((1 << 20) + rest < size, "cut short: " + rest);
        }
    }

    @Test
    void overTlsAFileThatShrinksIsCutShortToo() throws Exception {
        long size = 48L << 20;
        file("shrinks.bin", size);
        TestCertificates certificates = TestCertificates.get();
        start(RawClient.loopback().tls(TlsOptions.builder(certificates.serverContext(
                TestCertificates.ServerKey.EC_P256)).build()));
        try (SSLSocket socket = (SSLSocket) certificates.clientContext().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            InputStream in = socket.getInputStream();
            send(socket, get("/files/shrinks.bin"));
            assertEquals(size, contentLength(head(in)));
            assertEquals(1 << 20, body(in, 1 << 20)[1]);
            try (FileChannel file = FileChannel.open(root.resolve("shrinks.bin"), StandardOpenOption.WRITE)) {
                file.truncate(2 << 20);
            }
            long rest = body(in, size)[1];
            assertTrue((1 << 20) + rest < size, "cut short, not padded: " + rest);
        }
        Await.until("the file closed", Duration.ofSeconds(10),
                () -> openDescriptorsOf(root.resolve("shrinks.bin")) == 0);
    }

    @Test
    void overTlsAndHttp2FilesArePacedWholeAndRangesHold() throws Exception {
        Set<Thread> readersBefore = readerThreads();
        long crc = file("big.bin", 8L << 20);
        TestCertificates certificates = TestCertificates.get();
        start(RawClient.loopback().tls(TlsOptions.builder(certificates.serverContext(
                TestCertificates.ServerKey.EC_P256)).build()));
        for (HttpClient.Version version : HttpClient.Version.values()) {
            HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext()).version(version)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            URI uri = URI.create("https://localhost:" + server.port() + "/files/big.bin");
            HttpResponse<InputStream> whole = client.send(HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(version, whole.version());
            assertEquals(200, whole.statusCode());
            assertEquals(String.valueOf(8L << 20), whole.headers().firstValue("content-length").orElseThrow());
            try (InputStream in = whole.body()) {
                long[] got = body(in, Long.MAX_VALUE);
                assertEquals(8L << 20, got[1], version.toString());
                assertEquals(crc, got[0], version.toString());
            }
            HttpResponse<byte[]> part = client.send(HttpRequest.newBuilder(uri).header("Range", "bytes=1000-1009")
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(206, part.statusCode());
            byte[] expected = new byte[10];
            try (FileChannel file = FileChannel.open(root.resolve("big.bin"))) {
                file.read(ByteBuffer.wrap(expected), 1000);
            }
            assertArrayEquals(expected, part.body());
            HttpResponse<Void> head = client.send(HttpRequest.newBuilder(uri)
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertEquals(String.valueOf(8L << 20), head.headers().firstValue("content-length").orElseThrow(),
                    version + " HEAD");
        }
        Await.until("every file closed", Duration.ofSeconds(10),
                () -> openDescriptorsOf(root.resolve("big.bin")) == 0);
        // the reader threads this server started end when it stops, not 30 s later
        Set<Thread> started = readerThreads();
        started.removeAll(readersBefore);
        assertTrue(!started.isEmpty(), "the paced downloads ran on reader threads");
        server.stop(Duration.ZERO);
        for (Thread reader : started) {
            reader.join(10_000);
            assertTrue(!reader.isAlive(), reader.getName() + " still runs after the server stopped");
        }
    }

    private static Set<Thread> readerThreads() {
        Set<Thread> readers = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("fleche-files-")) {
                readers.add(thread);
            }
        }
        return readers;
    }

    /**
     * Files up to {@code maxCachedFileBytes} (1 MiB) are read once into direct memory and then sent from there: the
     * second request of each protocol is answered from memory. Whole and in ranges, one larger than the staging
     * buffer takes whole (queued as it is) and one smaller (copied into it), over plain HTTP/1.1, TLS and h2.
     */
    @Test
    void keptFilesAreSentFromMemoryWholeAndInRangesOverEveryProtocol() throws Exception {
        long bigCrc = file("kept.bin", 700_000);
        long smallCrc = file("small.bin", 5_000);
        byte[] kept = Files.readAllBytes(root.resolve("kept.bin"));
        TestCertificates certificates = TestCertificates.get();
        start(RawClient.loopback());
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (int round = 0; round < 2; round++) { // the first reads the files, the second finds them kept
            checkKept(plain, "http://127.0.0.1:" + server.port(), HttpClient.Version.HTTP_1_1, bigCrc, smallCrc,
                    kept);
        }
        server.stop(Duration.ZERO);
        start(RawClient.loopback().tls(TlsOptions.builder(certificates.serverContext(
                TestCertificates.ServerKey.EC_P256)).build()));
        for (int round = 0; round < 2; round++) {
            for (HttpClient.Version version : HttpClient.Version.values()) {
                HttpClient tls = HttpClient.newBuilder().sslContext(certificates.clientContext()).version(version)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                checkKept(tls, "https://localhost:" + server.port(), version, bigCrc, smallCrc, kept);
            }
        }
    }

    private static void checkKept(HttpClient client, String base, HttpClient.Version version, long bigCrc,
            long smallCrc, byte[] kept) throws Exception {
        String what = base + " " + version;
        for (String[] file : new String[][] {{"kept.bin", String.valueOf(bigCrc), "700000"},
                {"small.bin", String.valueOf(smallCrc), "5000"}}) {
            HttpResponse<byte[]> whole = client.send(HttpRequest.newBuilder(URI.create(base + "/files/" + file[0]))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(version, whole.version(), what);
            assertEquals(200, whole.statusCode(), what);
            assertEquals(file[2], whole.headers().firstValue("content-length").orElseThrow(), what);
            CRC32 crc = new CRC32();
            crc.update(whole.body());
            assertEquals(Long.parseLong(file[1]), crc.getValue(), what + " " + file[0]);
        }
        for (int[] range : new int[][] {{1000, 1009}, {100_000, 650_000}, {699_990, 699_999}}) {
            HttpResponse<byte[]> part = client.send(HttpRequest.newBuilder(URI.create(base + "/files/kept.bin"))
                    .header("Range", "bytes=" + range[0] + "-" + range[1]).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(206, part.statusCode(), what);
            assertEquals("bytes " + range[0] + "-" + range[1] + "/700000",
                    part.headers().firstValue("content-range").orElseThrow(), what);
            assertArrayEquals(java.util.Arrays.copyOfRange(kept, range[0], range[1] + 1), part.body(), what);
        }
    }

    @Test
    void curlResumesADownload(@TempDir Path downloads) throws Exception {
        Assumptions.assumeTrue(onPath("curl"), "curl is not installed (.ci/run installs it)");
        long crc = file("resume.bin", 3L << 20);
        start(RawClient.loopback());
        Path partial = downloads.resolve("resume.bin");
        byte[] first = new byte[1_234_567];
        try (FileChannel file = FileChannel.open(root.resolve("resume.bin"))) {
            file.read(ByteBuffer.wrap(first), 0);
        }
        Files.write(partial, first);
        Process curl = new ProcessBuilder("curl", "--silent", "--show-error", "--max-time", "30", "-C", "-",
                "-o", partial.toString(), "-w", "%{http_code} %{size_download}",
                "http://127.0.0.1:" + server.port() + "/files/resume.bin").redirectErrorStream(true).start();
        String output = new String(curl.getInputStream().readAllBytes(), UTF_8);
        assertTrue(curl.waitFor(60, TimeUnit.SECONDS));
        assertEquals("206 " + ((3L << 20) - first.length), output.trim());
        CRC32 whole = new CRC32();
        whole.update(Files.readAllBytes(partial));
        assertEquals(crc, whole.getValue());
    }

    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** How many of this process's file descriptors are open on {@code file} (Linux: {@code /proc/self/fd}). */
    static int openDescriptorsOf(Path file) {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return 0;
        }
        int count = 0;
        try (var links = Files.list(fds)) {
            for (Path link : (Iterable<Path>) links::iterator) {
                try {
                    if (Files.readSymbolicLink(link).equals(file.toRealPath())) {
                        count++;
                    }
                } catch (IOException ignored) {
                    // closed meanwhile
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return count;
    }

    static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(UTF_8);
    }
}
