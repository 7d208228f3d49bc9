package dev.fleche.transport.internal.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.TlsOptions.ClientAuth;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TlsChannel} on its own, without a connection: a {@link TlsChannelDriver} echoes application bytes over a
 * real loopback socket to JDK {@code SSLSocket} clients and an {@link EngineClient}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsChannelTest {
    private static final long WAIT = 10;
    private static TestCertificates certificates;
    private static HandshakeTasks tasks;

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.get();
        tasks = new HandshakeTasks(2, 64);
    }

    @AfterAll
    static void stopTasks() {
        tasks.close();
    }

    private static TlsOptions.Builder options(ServerKey key) {
        return TlsOptions.builder(certificates.serverContext(key));
    }

    private static SSLSocket connect(SSLContext client, int port, String protocol, String... alpn)
            throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setServerNames(List.of(new SNIHostName("localhost")));
        parameters.setApplicationProtocols(alpn);
        socket.setSSLParameters(parameters);
        return socket;
    }

    private static byte[] echo(SSLSocket socket, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return socket.getInputStream().readNBytes(bytes.length);
    }

    // ---------------------------------------------------------------- handshakes

    @ParameterizedTest
    @CsvSource({"TLSv1.3, EC_P256", "TLSv1.3, RSA_2048", "TLSv1.2, EC_P256", "TLSv1.2, RSA_2048"})
    void handshakesAndEchoes(String protocol, ServerKey key) throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(key).build(), 64 * 1024, tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), protocol, "http/1.1")) {
            assertEquals("hello", new String(echo(client, "hello"), StandardCharsets.US_ASCII));
            TlsChannelDriver.Echo server = driver.nextConnection();
            TlsInfo info = server.handshake.get(WAIT, TimeUnit.SECONDS);
            assertEquals(protocol, info.protocol());
            assertEquals(client.getSession().getCipherSuite(), info.cipherSuite());
            assertEquals("http/1.1", info.applicationProtocol());
            assertEquals("localhost", info.sniHostName());
            assertEquals(List.of(), info.peerCertificates());
            assertTrue(driver.tasksRun.get() > 0, "delegated tasks ran on the task executor");
            assertFalse(driver.onLoopAndWait(server.channel::isHandshaking));
            assertNotNull(driver.onLoopAndWait(server.channel::tlsSession));
        }
    }

    @Test
    void aClientWithoutAlpnIsServed() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), "TLSv1.3")) {
            assertEquals("hi", new String(echo(client, "hi"), StandardCharsets.US_ASCII));
            assertNull(driver.nextConnection().handshake.get(WAIT, TimeUnit.SECONDS).applicationProtocol());
        }
    }

    @Test
    void aClientOfferingOnlyH2FailsTheHandshakeWithAnAlertNotAHang() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), "TLSv1.3", "h2")) {
            SSLException refused = assertThrows(SSLException.class, client::startHandshake);
            assertTrue(refused.getMessage().contains("no_application_protocol"), refused.getMessage());
            IOException failure = driver.nextConnection().failure.get(WAIT, TimeUnit.SECONDS);
            assertInstanceOf(SSLHandshakeException.class, failure);
        }
    }

    @Test
    void handshakeTasksRunOnTheReactorWhenTheExecutorRefusesThem() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024,
                task -> {
                    throw new RejectedExecutionException("full");
                });
             SSLSocket client = connect(certificates.clientContext(), driver.port(), "TLSv1.3", "http/1.1")) {
            assertEquals("hello", new String(echo(client, "hello"), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void isHandshakingUntilTheClientHelloArrivesAndAnEndBeforeItFailsTheHandshake() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             Socket silent = new Socket(InetAddress.getLoopbackAddress(), driver.port())) {
            TlsChannelDriver.Echo server = driver.nextConnection();
            assertTrue(driver.onLoopAndWait(server.channel::isHandshaking));
            assertNull(driver.onLoopAndWait(server.channel::tlsSession));
            assertEquals(0, (int) driver.onLoopAndWait(server.channel::buffersHeld), "no buffer before bytes");
            assertEquals(SelectionKey.OP_READ, (int) driver.onLoopAndWait(
                    () -> server.channel.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE)),
                    "waiting for the ClientHello: read interest only, whatever the connection wants");
            assertEquals(0, (int) driver.onLoopAndWait(() -> {
                try {
                    return server.channel.write(ByteBuffer.wrap(new byte[] {'x'}));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }), "no application data before the handshake");
            silent.getOutputStream().write(new byte[] {0x16, 0x03, 0x01});
            silent.shutdownOutput();
            IOException failure = server.failure.get(WAIT, TimeUnit.SECONDS);
            assertInstanceOf(SSLHandshakeException.class, failure);
            assertTrue(failure.getMessage().contains("closed the connection during the handshake"),
                    failure.getMessage());
        }
    }

    // ---------------------------------------------------------------- client authentication

    @ParameterizedTest
    @CsvSource({
        "NEED, true, true",
        "NEED, false, false",
        "WANT, true, true",
        "WANT, false, true",
        "NONE, true, true",
    })
    void clientAuthentication(ClientAuth auth, boolean presentCertificate, boolean succeeds) throws Exception {
        SSLContext clientContext = presentCertificate ? certificates.clientContextWithCertificate()
                : certificates.clientContext();
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).clientAuth(auth).build(),
                64 * 1024, tasks);
             SSLSocket client = connect(clientContext, driver.port(), "TLSv1.3", "http/1.1")) {
            TlsChannelDriver.Echo server = driver.nextConnection();
            if (!succeeds) {
                // TLS 1.3: the client finishes before the server checks its (missing) certificate; it learns of
                // the failure on its first write or read (the alert, or a reset when the alert went unread)
                assertThrows(IOException.class, () -> echo(client, "x"));
                assertInstanceOf(SSLHandshakeException.class, server.failure.get(WAIT, TimeUnit.SECONDS));
                return;
            }
            assertEquals("x", new String(echo(client, "x"), StandardCharsets.US_ASCII));
            List<?> chain = server.handshake.get(WAIT, TimeUnit.SECONDS).peerCertificates();
            if (auth != ClientAuth.NONE && presentCertificate) {
                assertEquals(List.of(certificates.clientCertificate(), certificates.caCertificate()), chain);
            } else {
                assertEquals(List.of(), chain);
            }
        }
    }

    // ---------------------------------------------------------------- data

    @ParameterizedTest
    @CsvSource({"TLSv1.3, 1000", "TLSv1.3, 65536", "TLSv1.2, 777", "TLSv1.2, 65536"})
    void echoesFourMebibytesWithoutLosingAByte(String protocol, int serverReadBytes) throws Exception {
        byte[] data = new byte[4 * 1024 * 1024];
        new Random(13).nextBytes(data);
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), serverReadBytes,
                tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), protocol, "http/1.1")) {
            client.startHandshake();
            OutputStream out = client.getOutputStream();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int off = 0; off < data.length; off += 7919) {
                        out.write(data, off, Math.min(7919, data.length - off));
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            InputStream in = client.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream(data.length);
            byte[] chunk = new byte[3001];
            while (received.size() < data.length) {
                int n = in.read(chunk);
                assertTrue(n > 0, "stream ended after " + received.size() + " bytes");
                received.write(chunk, 0, n);
            }
            writer.get(WAIT, TimeUnit.SECONDS);
            assertArrayEquals(sha256(data), sha256(received.toByteArray()));
            TlsChannelDriver.Echo server = driver.nextConnection();
            // read on the loop: the channel's write can put the last record on the wire before the loop counts it
            assertEquals((long) data.length, (long) driver.onLoopAndWait(() -> server.bytesEchoed));
            assertEquals(0, (int) driver.onLoopAndWait(server.channel::buffersHeld),
                    "an idle TLS connection holds no record buffer");
            assertTrue(driver.pool.retained() > 0, "the buffers went back to the reactor's pool");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void aWriteOfManyRecordsGoesOutFourRecordsAtATimeWhileTheClientReadsSlowly(String protocol) throws Exception {
        byte[] data = new byte[100_000]; // six records: a wide buffer of four, then another
        new Random(17).nextBytes(data);
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 1000, tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), protocol, "http/1.1")) {
            client.setReceiveBufferSize(4096); // the socket takes part of a wide buffer: the rest waits for OP_WRITE
            client.startHandshake();
            TlsChannelDriver.Echo server = driver.nextConnection();
            assertEquals(0, driver.pool.retainedWide());
            server.send(data);
            InputStream in = client.getInputStream();
            byte[] received = in.readNBytes(data.length);
            assertArrayEquals(sha256(data), sha256(received));
            assertEquals(0, (int) driver.onLoopAndWait(server.channel::buffersHeld), "every buffer given back");
            assertEquals(1, driver.pool.retainedWide(), "the records were written from a wide buffer");
        }
    }

    @Test
    void manyConcurrentHandshakesShareTheTaskPoolAndTheBufferPool() throws Exception {
        int clients = 32;
        SSLContext clientContext = certificates.clientContext();
        ExecutorService clientThreads = Executors.newFixedThreadPool(clients);
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.RSA_2048).build(), 1000, tasks)) {
            List<CompletableFuture<String>> echoes = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                String text = "client-" + i;
                String protocol = i % 2 == 0 ? "TLSv1.3" : "TLSv1.2";
                echoes.add(CompletableFuture.supplyAsync(() -> {
                    try (SSLSocket client = connect(clientContext, driver.port(), protocol, "http/1.1")) {
                        return new String(echo(client, text), StandardCharsets.US_ASCII);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }, clientThreads));
            }
            for (int i = 0; i < clients; i++) {
                assertEquals("client-" + i, echoes.get(i).get(30, TimeUnit.SECONDS));
            }
            for (int i = 0; i < clients; i++) {
                TlsChannelDriver.Echo server = driver.nextConnection();
                server.closed.get(WAIT, TimeUnit.SECONDS);
                assertFalse(server.failure.getNow(null) instanceof SSLException,
                        () -> "was " + server.failure.join());
            }
            assertTrue(driver.pool.retained() <= 8, "the pool keeps at most its bound");
        } finally {
            clientThreads.shutdownNow();
        }
    }

    @Test
    void applicationDataSentWithTheLastHandshakeFlightIsNotLost() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             EngineClient client = new EngineClient(certificates.clientContext(), driver.port(), "TLSv1.3")) {
            byte[] request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            client.handshake(request);
            assertArrayEquals(request, client.read(request.length));
        }
    }

    @Test
    void tls13KeyUpdatesFromTheClientAreAnsweredAndNotMistakenForTheEnd() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 1000, tasks)) {
            String java = ProcessHandle.current().info().command().orElseThrow();
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process client = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", classPath,
                    KeyUpdateClient.class.getName(), String.valueOf(driver.port()), String.valueOf(256 * 1024))
                    .redirectErrorStream(true).start();
            try {
                client.getOutputStream().close();
                String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(client.waitFor(30, TimeUnit.SECONDS));
                assertEquals("ECHOED 262144", output.strip());
                assertEquals(0, client.exitValue());
            } finally {
                client.destroyForcibly();
            }
            TlsChannelDriver.Echo server = driver.nextConnection();
            assertEquals(256L * 1024, (long) driver.onLoopAndWait(() -> server.bytesEchoed));
            // the client may exit while the server still answers its last KeyUpdate: a broken pipe then, but
            // never a TLS failure
            server.closed.get(WAIT, TimeUnit.SECONDS);
            assertFalse(server.failure.getNow(null) instanceof SSLException, () -> "was " + server.failure.join());
        }
    }

    // ---------------------------------------------------------------- closing

    @ParameterizedTest
    @CsvSource({"TLSv1.3", "TLSv1.2"})
    void theClientsCloseNotifyEndsTheInputAndIsAnswered(String protocol) throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             EngineClient client = new EngineClient(certificates.clientContext(), driver.port(), protocol)) {
            client.handshake(null);
            client.write("ping".getBytes(StandardCharsets.US_ASCII));
            assertEquals("ping", new String(client.read(4), StandardCharsets.US_ASCII));
            client.closeNotify();
            TlsChannelDriver.Echo server = driver.nextConnection();
            server.peerEnded.get(WAIT, TimeUnit.SECONDS);
            assertEquals(EngineClient.Ending.CLOSE_NOTIFY, client.readToEnd());
            assertTrue(client.socketAtEof(), "TCP FIN after close_notify");
            server.closed.get(WAIT, TimeUnit.SECONDS);
            assertFalse(server.failure.isDone(), () -> "no failure, was " + server.failure.join());
        }
    }

    @Test
    void shutdownOutputSendsCloseNotifyAndTheInputStaysReadable() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             EngineClient client = new EngineClient(certificates.clientContext(), driver.port(), "TLSv1.3")) {
            client.handshake(null);
            client.write("a".getBytes(StandardCharsets.US_ASCII));
            assertEquals("a", new String(client.read(1), StandardCharsets.US_ASCII));
            TlsChannelDriver.Echo server = driver.nextConnection();
            server.shutdownOutput();
            assertEquals(EngineClient.Ending.CLOSE_NOTIFY, client.readToEnd());
            assertEquals(TlsChannel.Phase.SHUT, driver.onLoopAndWait(server.channel::phase));
            client.closeNotify();
            server.peerEnded.get(WAIT, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTls12RenegotiationIsRefused() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             SSLSocket client = connect(certificates.clientContext(), driver.port(), "TLSv1.2", "http/1.1")) {
            assertEquals("one", new String(echo(client, "one"), StandardCharsets.US_ASCII));
            assertThrows(IOException.class, () -> {
                client.startHandshake();
                if (echo(client, "two").length < 3) {
                    throw new IOException("stream ended");
                }
            });
            IOException failure = driver.nextConnection().failure.get(WAIT, TimeUnit.SECONDS);
            assertInstanceOf(TlsChannel.RenegotiationRefused.class, failure);
        }
    }

    @ParameterizedTest
    @CsvSource({"TLSv1.2", "TLSv1.3"})
    void aSecondConnectionResumesTheSession(String protocol) throws Exception {
        SSLContext clientContext = certificates.clientContext();
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.RSA_2048).build(), 64 * 1024, tasks)) {
            long fullHandshakeBytes;
            byte[] firstId;
            try (EngineClient first = new EngineClient(clientContext, driver.port(), protocol)) {
                first.handshake(null);
                fullHandshakeBytes = first.bytesReceived();
                firstId = first.engine().getSession().getId();
                first.write("1".getBytes(StandardCharsets.US_ASCII));
                first.read(1); // TLS 1.3: the session ticket arrives after the handshake, before this echo
            }
            try (EngineClient second = new EngineClient(clientContext, driver.port(), protocol)) {
                second.handshake(null);
                int certificateBytes = certificates.serverKeyStore(ServerKey.RSA_2048).getCertificate("server")
                        .getEncoded().length;
                assertTrue(second.bytesReceived() < fullHandshakeBytes - certificateBytes,
                        "a resumed handshake sends no certificate: " + second.bytesReceived() + " bytes, the full "
                                + "one " + fullHandshakeBytes);
                if (protocol.equals("TLSv1.2")) {
                    assertArrayEquals(firstId, second.engine().getSession().getId(), "the same session id");
                }
                second.write("2".getBytes(StandardCharsets.US_ASCII));
                assertEquals("2", new String(second.read(1), StandardCharsets.US_ASCII));
            }
        }
    }

    // ---------------------------------------------------------------- not TLS

    @Test
    void plainHttpOnTheTlsPortGetsAPlaintext400AndTheConnectionCloses() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             Socket plain = new Socket(InetAddress.getLoopbackAddress(), driver.port())) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String response = new String(plain.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.matches("(?s)HTTP/1\\.1 400 Bad Request\r\n"
                    + "Date: [A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n"
                    + "Content-Type: text/plain; charset=us-ascii\r\n"
                    + "Content-Length: 24\r\n"
                    + "Connection: close\r\n"
                    + "\r\n"
                    + "This port speaks HTTPS\\.\n"), response);
            assertInstanceOf(PlaintextRequestException.class,
                    driver.nextConnection().failure.get(WAIT, TimeUnit.SECONDS));
        }
    }

    @Test
    void garbageBeforeTheHandshakeClosesTheConnection() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             Socket scanner = new Socket(InetAddress.getLoopbackAddress(), driver.port())) {
            scanner.setSoTimeout(10_000);
            scanner.getOutputStream().write(new byte[] {0x00, 0x01, 0x02, (byte) 0xFF, '\r', '\n'});
            scanner.getInputStream().readAllBytes();
            IOException failure = driver.nextConnection().failure.get(WAIT, TimeUnit.SECONDS);
            assertInstanceOf(SSLHandshakeException.class, failure);
            assertTrue(failure.getMessage().contains("0x00"), failure.getMessage());
        }
    }

    @Test
    void garbageAfterAValidRecordHeaderFailsTheHandshake() throws Exception {
        try (TlsChannelDriver driver = new TlsChannelDriver(options(ServerKey.EC_P256).build(), 64 * 1024, tasks);
             Socket scanner = new Socket(InetAddress.getLoopbackAddress(), driver.port())) {
            scanner.setSoTimeout(10_000);
            byte[] record = new byte[5 + 40];
            record[0] = 0x16;
            record[1] = 0x03;
            record[2] = 0x01;
            record[4] = 40;
            scanner.getOutputStream().write(record);
            scanner.getInputStream().readAllBytes();
            assertInstanceOf(SSLException.class, driver.nextConnection().failure.get(WAIT, TimeUnit.SECONDS));
        }
    }

    private static byte[] sha256(byte[] data) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }
}
