package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleche.transport.testing.MainProcess;
import dev.fleche.transport.testing.TestCertificates;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 GiB file downloaded from a server whose heap is 64 MiB ({@code -Xmx64m}, its own JVM): over plain HTTP/1.1
 * (from the file to the socket) and over HTTP/2 on TLS (read off the reactor in a window of buffers, under flow
 * control). The file is sparse (made in an instant, zeros on the wire), so the test costs the transfer only.
 */
class StaticLargeDownloadTest {
    private static final long GIB = 1L << 30;

    @TempDir
    Path root;

    @Test
    @Timeout(240)
    void aGibibyteLeavesA64MiBHeapOverHttp11AndHttp2() throws Exception {
        try (FileChannel sparse = FileChannel.open(root.resolve("one.gib"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            sparse.position(GIB - 1).write(ByteBuffer.wrap(new byte[1]));
        }
        TestCertificates certificates = TestCertificates.get();
        Path keyStore = root.resolve("server.p12");
        try (OutputStream out = Files.newOutputStream(keyStore)) {
            certificates.serverKeyStore(TestCertificates.ServerKey.EC_P256).store(out,
                    TestCertificates.PASSWORD.toCharArray());
        }
        try (MainProcess plain = MainProcess.startWithJvmOptions(java.util.List.of("-Xmx64m"), StaticServerMain.class,
                root.toString())) {
            assertEquals(GIB, http11(plain.port()));
        }
        try (MainProcess tls = MainProcess.startWithJvmOptions(java.util.List.of("-Xmx64m"), StaticServerMain.class,
                root.toString(), keyStore.toString(), TestCertificates.PASSWORD)) {
            HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext())
                    .version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + tls.port() + "/files/one.gib")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertEquals(200, response.statusCode());
            try (InputStream in = response.body()) {
                assertEquals(GIB, count(in));
            }
        }
    }

    private static long http11(int port) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /files/one.gib HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".getBytes(ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                head.append((char) in.read());
            }
            assertEquals(true, head.toString().contains("Content-Length: " + GIB + "\r\n"), head.toString());
            return count(in);
        }
    }

    /** Counts the bytes to EOF, checking they are all zeros (the sparse file's). */
    private static long count(InputStream in) throws java.io.IOException {
        byte[] buffer = new byte[256 * 1024];
        long total = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            for (int i = 0; i < n; i += 4096) {
                if (buffer[i] != 0) {
                    throw new AssertionError("a byte that is not the file's at " + (total + i));
                }
            }
            total += n;
        }
        return total;
    }
}
