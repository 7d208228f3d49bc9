package dev.fleche.perf.loadgen;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Uploads and downloads against a small server on Fleche's transport, and the failures they must report. */
class TransferTest {
    private static final long BYTES = 3 * 1024 * 1024 + 7;
    private static final Duration STALL = Duration.ofSeconds(10);
    private static HttpServer server;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).build(), ex -> {
            switch (ex.path()) {
                case "/upload" -> new Thread(() -> upload(ex, 0)).start();
                case "/miscount" -> new Thread(() -> upload(ex, -1)).start();
                case "/download" -> new Thread(() -> download(ex, BYTES, BYTES)).start();
                case "/short" -> new Thread(() -> download(ex, BYTES, BYTES / 2)).start();
                default -> ex.respond(404, new HttpFields(0), new byte[0]);
            }
        });
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop(Duration.ofSeconds(1));
    }

    /** Reads the body, answers its length plus {@code skew}. */
    private static void upload(HttpExchange ex, long skew) {
        long n = 0;
        byte[] buffer = new byte[8192];
        try (InputStream in = ex.requestBody()) {
            for (int r; (r = in.read(buffer)) >= 0; ) {
                n += r;
            }
        } catch (IOException e) {
            ex.abort();
            return;
        }
        ex.respond(200, new HttpFields(0), Long.toString(n + skew).getBytes(StandardCharsets.US_ASCII));
    }

    /** Declares {@code declared} bytes (chunked when they are all sent), sends {@code sent}, then ends or aborts. */
    private static void download(HttpExchange ex, long declared, long sent) {
        try {
            OutputStream out = ex.startResponse(200, new HttpFields(0), declared == sent ? -1 : declared);
            byte[] zeros = new byte[16384];
            for (long left = sent; left > 0; left -= Math.min(left, zeros.length)) {
                out.write(zeros, 0, (int) Math.min(left, zeros.length));
            }
            if (declared == sent) {
                out.close();
            } else {
                out.flush();
                ex.abort();
            }
        } catch (IOException e) {
            ex.abort();
        }
    }

    @Test
    void anUploadIsCountedBack() throws Exception {
        Transfer.Result r = Transfer.upload("127.0.0.1", server.port(), "/upload", BYTES, STALL);
        assertNull(r.failure());
        assertEquals(BYTES, r.bytes());
        assertTrue(r.mibPerSecond() > 0);
    }

    @Test
    void aDownloadIsCountedInFull() throws Exception {
        Transfer.Result r = Transfer.download("127.0.0.1", server.port(), "/download", BYTES, STALL);
        assertNull(r.failure());
        assertEquals(BYTES, r.bytes());
    }

    @Test
    void aWrongCountFails() throws Exception {
        Transfer.Result r = Transfer.upload("127.0.0.1", server.port(), "/miscount", BYTES, STALL);
        assertTrue(r.failure() != null && r.failure().contains("not the count " + BYTES), r.failure());
        assertTrue(Double.isNaN(r.mibPerSecond()));
    }

    @Test
    void aShortBodyFails() throws Exception {
        Transfer.Result r = Transfer.download("127.0.0.1", server.port(), "/short", BYTES, STALL);
        assertTrue(r.failure() != null && r.failure().contains("closed"), r.failure());
        assertTrue(r.bytes() <= BYTES / 2, r.failure());
    }

    @Test
    void aDownloadOfAnotherSizeFails() throws Exception {
        Transfer.Result r = Transfer.download("127.0.0.1", server.port(), "/download", BYTES + 1, STALL);
        assertTrue(r.failure() != null && r.failure().contains("not " + (BYTES + 1)), r.failure());
    }

    @Test
    void aStatusOtherThan200Fails() throws Exception {
        Transfer.Result r = Transfer.upload("127.0.0.1", server.port(), "/nowhere", 1000, STALL);
        assertEquals("status 404", r.failure());
    }
}
