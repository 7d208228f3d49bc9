package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEM key material ({@link PemFiles}), JDK only: the key formats (PKCS#8, PKCS#1 RSA, SEC1 EC with its curve in
 * the key or in an {@code EC PARAMETERS} block), each refusal with a message that names the file and the fault, and
 * {@link PemFiles#reload()} (the poll the running server makes): unchanged, changed and good, changed and bad (one
 * log line, the old material kept), expiry against an injected clock. Keys written by OpenSSL itself are read in
 * {@link #opensslsOwnFormats} (skipped when openssl is not installed; CI installs it). Rotation with real clients:
 * {@code PemRotationTest}.
 */
@Timeout(60)
class PemFilesTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The OID of P-256 (prime256v1), the test CA's server curve. */
    private static final String P256 = "06082a8648ce3d030107";

    @TempDir
    Path dir;
    private final TestCertificates certificates = TestCertificates.get();

    // ---------------------------------------------------------------- the formats

    @Test
    void pkcs8RsaAndEcServeTheirCertificate() throws Exception {
        for (ServerKey key : ServerKey.values()) {
            PemFiles pem = write(certificates.serverCertificatePem(key), pkcs8(certificates.serverPrivateKey(key)))
                    .build();
            X509Certificate expected = TestCertificates.parsePem(certificates.serverCertificatePem(key));
            assertEquals(List.of(expected), pem.certificates());
            assertEquals(expected.getNotAfter().toInstant(), pem.notAfter());
            assertEquals(expected, served(pem));
        }
    }

    @Test
    void pkcs1Rsa() throws Exception {
        PrivateKey key = certificates.serverPrivateKey(ServerKey.RSA_2048);
        PemFiles pem = write(certificates.serverCertificatePem(ServerKey.RSA_2048),
                pem("RSA PRIVATE KEY", innerKey(key.getEncoded()))).build();
        assertEquals(TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.RSA_2048)), served(pem));
    }

    @Test
    void sec1EcWithItsCurveInTheKeyOrInAnEcParametersBlock() throws Exception {
        PrivateKey key = certificates.serverPrivateKey(ServerKey.EC_P256);
        byte[] sec1 = innerKey(key.getEncoded()); // the JDK writes version and private value only
        String certificate = certificates.serverCertificatePem(ServerKey.EC_P256);
        byte[] withCurve = sec1WithCurve(sec1);
        assertEquals(TestCertificates.parsePem(certificate), served(write(certificate,
                pem("EC PRIVATE KEY", withCurve)).build()));
        assertEquals(TestCertificates.parsePem(certificate), served(write(certificate,
                pem("EC PARAMETERS", HEX.parseHex(P256)) + pem("EC PRIVATE KEY", sec1)).build()));
        assertRefused(certificate, pem("EC PRIVATE KEY", sec1), "SEC1 EC key without its named curve");
    }

    @Test
    void certificatesThatAreNotAChainAreRefused() throws Exception {
        // the server's certificate is self-signed: the CA after it did not sign it
        String chain = certificates.serverCertificatePem(ServerKey.EC_P256) + "\n# not its issuer\n"
                + certificates.caPem();
        assertRefused(chain, pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256)), "not a chain");
    }

    // ---------------------------------------------------------------- refusals name the file and the fault

    @Test
    void unusableFilesAreRefusedWithAMessageNamingTheFault() throws Exception {
        String ec = certificates.serverCertificatePem(ServerKey.EC_P256);
        String ecKey = pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256));
        String rsaKey = pkcs8(certificates.serverPrivateKey(ServerKey.RSA_2048));
        assertRefused(ec, rsaKey, "does not match the first certificate");
        assertRefused(certificates.caPem() + ec, ecKey, "does not match the first certificate");
        assertRefused(ec, ecKey.substring(0, ecKey.indexOf("-----END")), "has no END line");
        assertRefused(ec.substring(0, ec.length() / 2), ecKey, "has no END line");
        assertRefused(ec.replace("MI", "M!"), ecKey, "not valid Base64");
        assertRefused("", ecKey, "no CERTIFICATE block");
        assertRefused(ec, "", "no private key block");
        assertRefused(ec, pem("ENCRYPTED PRIVATE KEY", new byte[16]), "an encrypted PKCS#8 key");
        assertRefused(ec, "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"
                + "AAAA\n-----END RSA PRIVATE KEY-----\n", "an encrypted PKCS#1 RSA key");
        assertRefused(ec, pem("OPENSSH PRIVATE KEY", new byte[16]), "an OpenSSH key");
        assertRefused(ec, pem("DSA PRIVATE KEY", new byte[16]), "DSA PRIVATE KEY block is not a supported key");
        assertRefused(ec, pem("PRIVATE KEY", new byte[] {0x30, 0x03, 0x02, 0x01, 0x00}), "not a PKCS#8 private key");
        // a PKCS#8 X25519 key (RFC 8410): a key agreement key, no TLS server signs with it
        assertRefused(ec, pem("PRIVATE KEY", HEX.parseHex("302e020100300506032b656e04220420"
                + "00".repeat(32))), "not one a TLS server signs with");
        Files.write(dir.resolve("huge.crt"), new byte[1024 * 1024 + 1]);
        IOException huge = assertThrows(IOException.class, () -> PemFiles.builder(dir.resolve("huge.crt"),
                dir.resolve("tls.key")).build());
        assertTrue(huge.getMessage().contains("larger than"), huge.getMessage());
        IOException missing = assertThrows(IOException.class, () -> PemFiles.builder(dir.resolve("none.crt"),
                dir.resolve("tls.key")).build());
        assertTrue(missing.getMessage().contains("none.crt"), missing.getMessage());
    }

    @Test
    void anExpiredCertificateIsRefused() throws Exception {
        X509Certificate certificate = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.EC_P256));
        Clock later = Clock.fixed(certificate.getNotAfter().toInstant().plusSeconds(1), ZoneOffset.UTC);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> write(
                certificates.serverCertificatePem(ServerKey.EC_P256),
                pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256))).clock(later).build());
        assertTrue(e.getMessage().contains("expired at " + certificate.getNotAfter().toInstant()), e.getMessage());
    }

    // ---------------------------------------------------------------- reload

    @Test
    void reloadTakesGoodNewFilesOnlyAndLogsARefusalOnce() throws Exception {
        MutableClock clock = new MutableClock(Instant.now());
        PemFiles pem = write(certificates.serverCertificatePem(ServerKey.EC_P256),
                pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256))).clock(clock).build();
        X509Certificate ec = pem.certificates().get(0);
        X509Certificate rsa = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.RSA_2048));
        assertFalse(pem.reload(), "unchanged files");
        assertEquals(0, pem.reloads());
        try (CapturedEvents log = new CapturedEvents().start()) {
            // an editor writes the certificate first: for a moment the key is the old one
            Files.writeString(dir.resolve("tls.crt"), certificates.serverCertificatePem(ServerKey.RSA_2048));
            assertFalse(pem.reload());
            assertFalse(pem.reload(), "the same refused files again");
            assertEquals(1, pem.reloadFailures());
            assertEquals(ec, served(pem), "the old pair stays");
            List<String> refusals = refusals(log);
            assertEquals(1, refusals.size(), refusals.toString());
            assertTrue(refusals.get(0).contains("does not match the first certificate")
                    && refusals.get(0).contains("tls.key") && refusals.get(0).contains("keeping="), refusals.get(0));
            // then the key: the pair is whole
            Files.writeString(dir.resolve("tls.key"), pkcs8(certificates.serverPrivateKey(ServerKey.RSA_2048)));
            assertTrue(pem.reload());
            assertEquals(1, pem.reloads());
            assertEquals(rsa, served(pem));
            assertEquals(rsa.getNotAfter().toInstant(), pem.notAfter());
            assertTrue(log.events().stream().anyMatch(e -> e.startsWith("event=tls-reload certificate=")));
        }
        // a file that disappears is a refusal too, and the material stays
        Files.delete(dir.resolve("tls.key"));
        assertFalse(pem.reload());
        assertEquals(2, pem.reloadFailures());
        assertEquals(rsa, served(pem));
    }

    @Test
    void expiresWithinFollowsTheClock() throws Exception {
        X509Certificate certificate = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.EC_P256));
        Instant notAfter = certificate.getNotAfter().toInstant();
        MutableClock clock = new MutableClock(notAfter.minus(Duration.ofDays(10)));
        PemFiles pem = write(certificates.serverCertificatePem(ServerKey.EC_P256),
                pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256))).clock(clock).build();
        assertFalse(pem.expiresWithin(Duration.ofDays(7)));
        clock.set(notAfter.minus(Duration.ofDays(7)).minusSeconds(1));
        assertFalse(pem.expiresWithin(Duration.ofDays(7)));
        clock.set(notAfter.minus(Duration.ofDays(7)).plusSeconds(1));
        assertTrue(pem.expiresWithin(Duration.ofDays(7)));
    }

    @Test
    void aServerReportsReloadsAndItsCertificatesExpiry() throws Exception {
        PemFiles pem = write(certificates.serverCertificatePem(ServerKey.EC_P256),
                pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256))).reloadInterval(Duration.ZERO).build();
        HttpServer server = HttpServer.create(RawClient.loopback().tls(TlsOptions.builder(pem).build()).build(),
                exchange -> exchange.respond(204, new HttpFields(), new byte[0])).start();
        try {
            ServerMetrics metrics = server.metrics();
            assertEquals(pem.notAfter(), metrics.tlsCertificateNotAfter());
            assertEquals(0, metrics.tlsReloads());
            Files.writeString(dir.resolve("tls.crt"), certificates.serverCertificatePem(ServerKey.RSA_2048));
            Files.writeString(dir.resolve("tls.key"), pkcs8(certificates.serverPrivateKey(ServerKey.RSA_2048)));
            assertTrue(pem.reload());
            metrics = server.metrics();
            assertEquals(1, metrics.tlsReloads());
            assertEquals(0, metrics.tlsReloadFailures());
            assertEquals(TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.RSA_2048)).getNotAfter()
                    .toInstant(), metrics.tlsCertificateNotAfter());
        } finally {
            server.stop(Duration.ZERO);
        }
        assertEquals(null, HttpServer.create(RawClient.loopback().build(), e -> { }).metrics()
                .tlsCertificateNotAfter());
    }

    // ---------------------------------------------------------------- OpenSSL's own files

    @Test
    void opensslsOwnFormats() throws Exception {
        assumeTrue(UnixSocketTest.installed("openssl"), "openssl is not installed");
        String subject = "/CN=localhost";
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.key", "-out", "rsa.crt", "-subj",
                subject, "-days", "2");
        assertTrue(Files.readString(dir.resolve("rsa.key")).contains("BEGIN PRIVATE KEY"));
        assertServes("rsa.crt", "rsa.key");
        openssl("rsa", "-in", "rsa.key", "-traditional", "-out", "rsa1.key");
        assertTrue(Files.readString(dir.resolve("rsa1.key")).contains("BEGIN RSA PRIVATE KEY"));
        assertServes("rsa.crt", "rsa1.key");
        openssl("ecparam", "-name", "prime256v1", "-genkey", "-out", "ec.key");
        assertTrue(Files.readString(dir.resolve("ec.key")).contains("BEGIN EC PARAMETERS"));
        openssl("req", "-x509", "-key", "ec.key", "-out", "ec.crt", "-subj", subject, "-days", "2");
        assertServes("ec.crt", "ec.key");
        openssl("ec", "-in", "ec.key", "-out", "ec1.key"); // SEC1 with its curve, no parameters block
        assertServes("ec.crt", "ec1.key");
        openssl("genpkey", "-algorithm", "ed25519", "-out", "ed.key");
        openssl("req", "-x509", "-key", "ed.key", "-out", "ed.crt", "-subj", subject, "-days", "2");
        PemFiles ed = PemFiles.builder(dir.resolve("ed.crt"), dir.resolve("ed.key")).build();
        assertEquals("EdDSA", ed.certificates().get(0).getPublicKey().getAlgorithm());
        // a chain: a CA, the server's certificate it signed, both in the file, the server's first
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-subj",
                "/CN=Test CA", "-days", "2");
        openssl("req", "-new", "-key", "ec.key", "-out", "leaf.csr", "-subj", subject);
        openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "leaf.crt", "-days", "2");
        Files.writeString(dir.resolve("chain.crt"), Files.readString(dir.resolve("leaf.crt"))
                + Files.readString(dir.resolve("ca.crt")));
        PemFiles chained = PemFiles.builder(dir.resolve("chain.crt"), dir.resolve("ec.key"))
                .trustBundle(dir.resolve("ca.crt")).build();
        assertEquals(2, chained.certificates().size());
        assertEquals("CN=Test CA", chained.certificates().get(1).getSubjectX500Principal().getName());
        assertEquals(chained.certificates().get(0), served(chained));
        openssl("pkcs8", "-topk8", "-in", "rsa.key", "-out", "enc.key", "-passout", "pass:secret");
        IllegalArgumentException encrypted = assertThrows(IllegalArgumentException.class,
                () -> PemFiles.builder(dir.resolve("rsa.crt"), dir.resolve("enc.key")).build());
        assertTrue(encrypted.getMessage().contains("an encrypted PKCS#8 key"), encrypted.getMessage());
    }

    private void assertServes(String certificate, String key) throws Exception {
        PemFiles pem = PemFiles.builder(dir.resolve(certificate), dir.resolve(key)).build();
        assertEquals(pem.certificates().get(0), served(pem));
    }

    private void openssl(String... arguments) throws Exception {
        String[] command = new String[arguments.length + 1];
        command[0] = "openssl";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), US_ASCII);
        assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + output);
    }

    // ---------------------------------------------------------------- helpers

    private PemFiles.Builder write(String certificate, String key) throws IOException {
        Files.writeString(dir.resolve("tls.crt"), certificate);
        Files.writeString(dir.resolve("tls.key"), key);
        return PemFiles.builder(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    }

    private void assertRefused(String certificate, String key, String fault) throws IOException {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> write(certificate, key)
                .build(), fault);
        assertTrue(e.getMessage().contains(fault), e.getMessage());
        assertTrue(e.getMessage().contains(dir.toString()), "names the file: " + e.getMessage());
    }

    private static List<String> refusals(CapturedEvents log) {
        return log.events().stream().filter(e -> e.startsWith("event=tls-reload-refused")).collect(
                Collectors.toList());
    }

    /** The certificate a handshake with {@code pem}'s context presents (two engines, in memory). */
    static X509Certificate served(PemFiles pem) throws Exception {
        SSLEngine server = pem.sslContext().createSSLEngine();
        server.setUseClientMode(false);
        // a trust manager that takes any server certificate: the test reads which one it is
        javax.net.ssl.SSLContext trustAll = javax.net.ssl.SSLContext.getInstance("TLS");
        trustAll.init(null, new javax.net.ssl.TrustManager[] {new TrustEverything()}, null);
        SSLEngine client = trustAll.createSSLEngine("localhost", 1);
        client.setUseClientMode(true);
        handshake(client, server);
        return (X509Certificate) client.getSession().getPeerCertificates()[0];
    }

    /** Runs both engines' handshake in memory, their delegated tasks inline. */
    static void handshake(SSLEngine client, SSLEngine server) throws Exception {
        int packet = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
        int app = Math.max(client.getSession().getApplicationBufferSize(),
                server.getSession().getApplicationBufferSize());
        ByteBuffer toServer = ByteBuffer.allocate(packet * 4);
        ByteBuffer toClient = ByteBuffer.allocate(packet * 4);
        ByteBuffer sink = ByteBuffer.allocate(app * 2);
        ByteBuffer empty = ByteBuffer.allocate(0);
        client.beginHandshake();
        server.beginHandshake();
        for (int round = 0; round < 100; round++) {
            boolean clientDone = step(client, toClient, toServer, empty, sink);
            boolean serverDone = step(server, toServer, toClient, empty, sink);
            if (clientDone && serverDone) {
                return;
            }
        }
        throw new AssertionError("the handshake did not finish: " + client.getHandshakeStatus() + " / "
                + server.getHandshakeStatus());
    }

    /** One engine's turn: runs tasks, wraps into {@code out}, unwraps from {@code in}; whether it is done. */
    private static boolean step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer empty, ByteBuffer sink)
            throws Exception {
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                case NEED_WRAP -> engine.wrap(empty, out);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    in.flip();
                    javax.net.ssl.SSLEngineResult result = engine.unwrap(in, sink);
                    in.compact();
                    sink.clear();
                    if (result.getStatus() == javax.net.ssl.SSLEngineResult.Status.BUFFER_UNDERFLOW
                            || result.bytesConsumed() == 0 && engine.getHandshakeStatus()
                            == javax.net.ssl.SSLEngineResult.HandshakeStatus.NEED_UNWRAP) {
                        return false; // the other side's turn
                    }
                }
                default -> {
                    return true;
                }
            }
        }
    }

    static String pkcs8(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** The key inside a PKCS#8 PrivateKeyInfo: its last element, an OCTET STRING (PKCS#1 for RSA, SEC1 for EC). */
    static byte[] innerKey(byte[] pkcs8) {
        ByteBuffer der = ByteBuffer.wrap(pkcs8);
        skipHeader(der); // SEQUENCE
        skipValue(der); // version
        skipValue(der); // AlgorithmIdentifier
        int length = skipHeader(der); // OCTET STRING
        return Arrays.copyOfRange(pkcs8, der.position(), der.position() + length);
    }

    /** A SEC1 key (version, private value) with {@code [0]} the named curve P-256 added. */
    static byte[] sec1WithCurve(byte[] sec1) {
        ByteBuffer der = ByteBuffer.wrap(sec1);
        int length = skipHeader(der);
        byte[] content = Arrays.copyOfRange(sec1, der.position(), der.position() + length);
        byte[] curve = HEX.parseHex("a00a" + P256);
        byte[] inner = new byte[content.length + curve.length];
        System.arraycopy(content, 0, inner, 0, content.length);
        System.arraycopy(curve, 0, inner, content.length, curve.length);
        return ByteBuffer.allocate(2 + inner.length).put((byte) 0x30).put((byte) inner.length).put(inner).array();
    }

    private static int skipHeader(ByteBuffer der) {
        der.get();
        int first = der.get() & 0xFF;
        if (first < 0x80) {
            return first;
        }
        int length = 0;
        for (int i = 0; i < (first & 0x7F); i++) {
            length = length << 8 | der.get() & 0xFF;
        }
        return length;
    }

    private static void skipValue(ByteBuffer der) {
        int length = skipHeader(der);
        der.position(der.position() + length);
    }

    /** A clock a test sets. */
    static final class MutableClock extends Clock {
        private final AtomicReference<Instant> now;

        MutableClock(Instant start) {
            now = new AtomicReference<>(start);
        }

        void set(Instant instant) {
            now.set(instant);
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** Takes any server certificate: the tests look at which one was presented. */
    static final class TrustEverything implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
