package dev.fleche.perf.loadgen;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.harness.TlsKeys;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generator's TLS client against Fleche's own TLS transport (a key generated with keytool at test time): keep-
 * alive requests, a connection per request with sessions resumed (TLS 1.3 and TLS 1.2) or never offered again,
 * idle connections, and 1 MiB bodies that must arrive byte for byte.
 */
@Timeout(60)
class TlsLoadTest {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    /** 1 MiB + 3 of pseudo-random bytes: a body split across many records, checked byte for byte. */
    private static final byte[] MIB = new byte[(1 << 20) + 3];
    private static final long DOWNLOAD = 1L << 20;

    @TempDir
    static Path keys;
    private static HttpServer tls13;
    private static HttpServer tls12;

    @BeforeAll
    static void start() throws Exception {
        new Random(42).nextBytes(MIB);
        Path store = TlsKeys.generate(keys, TlsKeys.KeyType.EC, null);
        SSLContext context = new PeerTls(store, TlsKeys.PASSWORD).serverContext();
        tls13 = server(TlsOptions.builder(context).build());
        tls12 = server(TlsOptions.builder(context).protocols("TLSv1.2").build());
    }

    private static HttpServer server(TlsOptions tls) throws Exception {
        HttpServer s = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).tls(tls).build(), ex -> {
            switch (ex.path()) {
                case "/hello" -> ex.respond(200, new HttpFields(0), HELLO);
                case "/mib" -> ex.respond(200, new HttpFields(0), MIB);
                case "/download" -> new Thread(() -> {
                    try (var out = ex.startResponse(200, new HttpFields(0), -1)) {
                        byte[] zeros = new byte[10_000];
                        for (long left = DOWNLOAD; left > 0; left -= Math.min(left, zeros.length)) {
                            out.write(zeros, 0, (int) Math.min(left, zeros.length));
                        }
                    } catch (java.io.IOException e) {
                        ex.abort();
                    }
                }).start();
                default -> ex.respond(404, new HttpFields(0), new byte[0]);
            }
        });
        s.start();
        return s;
    }

    @AfterAll
    static void stop() throws Exception {
        tls13.stop(Duration.ofSeconds(1));
        tls12.stop(Duration.ofSeconds(1));
    }

    private static LoadSpec.Builder spec(HttpServer server, LoadSpec.Tls tls) {
        return LoadSpec.builder().port(server.port()).path("/hello").tls(tls).expectBody(HELLO)
                .duration(Duration.ofMillis(500));
    }

    @Test
    void keepAliveRequestsOverTls() throws Exception {
        LoadReport r = Engine.run(spec(tls13, LoadSpec.Tls.RESUME).connections(4).build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.requests() > 20, r.format());
        assertEquals(0, r.reconnects(), r.format());
        assertTrue(r.tlsSession().startsWith("TLSv1.3 "), r.format());
    }

    @Test
    void aConnectionPerRequestResumesTheSessionFromTheSecondConnectionOn() throws Exception {
        for (HttpServer server : new HttpServer[] {tls13, tls12}) {
            LoadReport r = Engine.run(spec(server, LoadSpec.Tls.RESUME).connections(1).connectionPerRequest(true)
                    .build());
            assertEquals(0, r.errors(), r.format());
            assertTrue(r.requests() >= 3, r.format());
            assertTrue(r.fullHandshakes() <= 1, "only the first connection's handshake is full: " + r.format());
            assertTrue(r.resumedHandshakes() >= r.requests() - 1, r.format());
            assertTrue(r.tlsSession().startsWith(server == tls13 ? "TLSv1.3 " : "TLSv1.2 "), r.format());
        }
    }

    @Test
    void concurrentConnectionsEachResumeTheirOwnSession() throws Exception {
        int n = 8; // each slot is a client of its own: only its first handshake is full
        LoadReport r = Engine.run(spec(tls13, LoadSpec.Tls.RESUME).connections(n).connectionPerRequest(true)
                .warmup(Duration.ofMillis(200)).duration(Duration.ofSeconds(1)).build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.requests() >= 2 * n, r.format()); // every slot reconnected at least once
        assertTrue(r.fullHandshakes() <= n, r.format());
        assertTrue(r.resumedHandshakes() >= r.requests() - n, r.format());
    }

    @Test
    void withoutResumptionEveryHandshakeIsFull() throws Exception {
        LoadReport r = Engine.run(spec(tls13, LoadSpec.Tls.FULL).connections(2).connectionPerRequest(true).build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.fullHandshakes() >= 3, r.format());
        assertEquals(0, r.resumedHandshakes(), r.format());
        assertTrue(r.fullHandshakes() >= r.requests() - 2 && r.fullHandshakes() <= r.requests() + 2, r.format());
    }

    @Test
    void idleTlsConnectionsStayOpen() throws Exception {
        LoadReport r = Engine.run(spec(tls13, LoadSpec.Tls.RESUME).mode(LoadSpec.Mode.IDLE).connections(50)
                .hold(Duration.ofMillis(200)).build());
        assertEquals(0, r.errors(), r.format());
        assertEquals(50, r.stillOpen(), r.format());
        assertEquals(50, r.fullHandshakes() + r.resumedHandshakes(), r.format());
    }

    @Test
    void aMebibyteBodyArrivesByteForByte() throws Exception {
        LoadReport r = Engine.run(spec(tls13, LoadSpec.Tls.RESUME).path("/mib").expectBody(MIB).connections(1)
                .build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.requests() >= 1, r.format());
        // and a wrong expectation is seen, so the check above can fail
        byte[] other = MIB.clone();
        other[other.length - 2] ^= 1;
        LoadReport wrong = Engine.run(spec(tls13, LoadSpec.Tls.RESUME).path("/mib").expectBody(other)
                .connections(1).build());
        assertTrue(wrong.requests() >= 1 && wrong.bodyErrors() == wrong.requests(), wrong.format());
    }

    @Test
    void aMebibyteDownloadOverTls() throws Exception {
        Transfer.Result r = Transfer.download("127.0.0.1", tls13.port(), "/download", DOWNLOAD,
                Duration.ofSeconds(10), LoadSpec.Tls.RESUME);
        assertNull(r.failure());
        assertEquals(DOWNLOAD, r.bytes());
    }
}
