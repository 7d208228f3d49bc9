package dev.fleche.transport.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at test time with the running JDK's {@code keytool}: two self-signed server keys for
 * {@code localhost} and {@code 127.0.0.1} (ECDSA P-256 and RSA 2048), a test CA, and a client key signed by the CA
 * for client authentication; {@link #trustStore()} trusts the CA and both server certificates. Made once per JVM
 * (six {@code keytool} runs, a few seconds), held in memory; the temporary
 * directory keytool worked in is deleted at once. Nothing here is of value outside a test: valid for two days,
 * password {@value #PASSWORD}.
 *
 * <p>Shared by the modules' tests through transport-nio's test-jar.
 */
public final class TestCertificates {
    /** The password of every key store made here. */
    public static final String PASSWORD = "changeit";

    /** The server key algorithms. */
    public enum ServerKey {
        EC_P256("-keyalg", "EC", "-groupname", "secp256r1"),
        RSA_2048("-keyalg", "RSA", "-keysize", "2048");

        private final List<String> keytoolArgs;

        ServerKey(String... keytoolArgs) {
            this.keytoolArgs = List.of(keytoolArgs);
        }
    }

    private static TestCertificates instance;

    private final X509Certificate ca;
    private final Map<ServerKey, KeyStore> servers;
    private final KeyStore client;

    private TestCertificates(X509Certificate ca, Map<ServerKey, KeyStore> servers, KeyStore client) {
        this.ca = ca;
        this.servers = servers;
        this.client = client;
    }

    /** The certificates of this JVM, made on first use. */
    public static synchronized TestCertificates get() {
        if (instance == null) {
            instance = make();
        }
        return instance;
    }

    /** The test CA's certificate (it signed the client's). */
    public X509Certificate caCertificate() {
        return ca;
    }

    /** The test CA's certificate in PEM, for {@code curl --cacert} or {@code openssl -CAfile}. */
    public String caPem() {
        return pem(ca);
    }

    /** The client's certificate (subject {@code CN=Fleche Test Client}). */
    public X509Certificate clientCertificate() {
        try {
            return (X509Certificate) client.getCertificate("client");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new server context with the {@code key} certificate, trusting the test CA (for client certificates). */
    public SSLContext serverContext(ServerKey key) {
        return context(servers.get(key));
    }

    /** A new client context trusting the test CA, without a certificate of its own. */
    public SSLContext clientContext() {
        return context(null);
    }

    /** A new client context trusting the test CA and presenting the client certificate. */
    public SSLContext clientContextWithCertificate() {
        return context(client);
    }

    /** The server key store ({@code PKCS12}, alias {@code server}, password {@value #PASSWORD}). */
    public KeyStore serverKeyStore(ServerKey key) {
        return servers.get(key);
    }

    /** The {@code key} server's certificate in PEM (for {@code PemFiles} tests). */
    public String serverCertificatePem(ServerKey key) {
        try {
            return pem((X509Certificate) servers.get(key).getCertificate("server"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code key} server's private key (its PKCS#8 encoding is {@code getEncoded()}). */
    public PrivateKey serverPrivateKey(ServerKey key) {
        try {
            return (PrivateKey) servers.get(key).getKey("server", PASSWORD.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A trust store holding the test CA and the two server certificates. */
    public KeyStore trustStore() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("ca", ca);
            for (Map.Entry<ServerKey, KeyStore> server : servers.entrySet()) {
                store.setCertificateEntry("server-" + server.getKey().name(),
                        server.getValue().getCertificate("server"));
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private SSLContext context(KeyStore keys) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustStore());
            KeyManagerFactory keyManagers = null;
            if (keys != null) {
                keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyManagers.init(keys, PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- making them

    private static TestCertificates make() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("fleche-certs");
            Keytool keytool = new Keytool(dir);
            keytool.run("-genkeypair", "-alias", "ca", "-keystore", "ca.p12", "-keyalg", "EC", "-groupname",
                    "secp256r1", "-dname", "CN=Fleche Test CA", "-ext", "bc:c", "-validity", "2");
            X509Certificate ca = (X509Certificate) load(dir.resolve("ca.p12")).getCertificate("ca");
            Map<ServerKey, CompletableFuture<KeyStore>> servers = new EnumMap<>(ServerKey.class);
            for (ServerKey key : ServerKey.values()) {
                servers.put(key, CompletableFuture.supplyAsync(() -> selfSigned(keytool, key)));
            }
            KeyStore client = signed(keytool, ca, "client", "client", "CN=Fleche Test Client",
                    ServerKey.EC_P256.keytoolArgs, "eku=clientAuth");
            Map<ServerKey, KeyStore> done = new EnumMap<>(ServerKey.class);
            for (Map.Entry<ServerKey, CompletableFuture<KeyStore>> e : servers.entrySet()) {
                done.put(e.getKey(), e.getValue().get(120, TimeUnit.SECONDS));
            }
            return new TestCertificates(ca, done, client);
        } catch (Exception e) {
            throw new IllegalStateException("could not make test certificates with keytool", e);
        } finally {
            deleteTree(dir);
        }
    }

    /** A self-signed server key pair for {@code localhost} and {@code 127.0.0.1}, alias {@code server}. */
    private static KeyStore selfSigned(Keytool keytool, ServerKey key) {
        try {
            String store = "server-" + key.name() + ".p12";
            List<String> generate = new ArrayList<>(List.of("-genkeypair", "-alias", "server", "-keystore", store,
                    "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2"));
            generate.addAll(key.keytoolArgs);
            keytool.run(generate.toArray(String[]::new));
            return load(keytool.dir.resolve(store));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key pair {@code name} signed by the CA, as an in-memory key store: entry {@code alias}, chain to the CA. */
    private static KeyStore signed(Keytool keytool, X509Certificate ca, String name, String alias, String subject,
                                   List<String> keyArgs, String extension) {
        try {
            String store = name + ".p12";
            List<String> generate = new ArrayList<>(List.of("-genkeypair", "-alias", alias, "-keystore", store,
                    "-dname", subject, "-validity", "2"));
            generate.addAll(keyArgs);
            keytool.run(generate.toArray(String[]::new));
            keytool.run("-certreq", "-alias", alias, "-keystore", store, "-file", name + ".csr");
            keytool.run("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", name + ".csr",
                    "-outfile", name + ".pem", "-rfc", "-ext", extension, "-validity", "2");
            KeyStore generated = load(keytool.dir.resolve(store));
            PrivateKey key = (PrivateKey) generated.getKey(alias, PASSWORD.toCharArray());
            X509Certificate certificate;
            try (InputStream in = Files.newInputStream(keytool.dir.resolve(name + ".pem"))) {
                certificate = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            KeyStore result = KeyStore.getInstance("PKCS12");
            result.load(null, null);
            result.setKeyEntry(alias, key, PASSWORD.toCharArray(), new Certificate[] {certificate, ca});
            return result;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyStore load(Path file) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static String pem(X509Certificate certificate) {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses a PEM certificate (for tests reading one back). */
    public static X509Certificate parsePem(String pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the running JDK's {@code keytool} (next to its {@code java}) in {@code dir}. */
    private static final class Keytool {
        private final Path dir;
        private final String executable;

        Keytool(Path dir) {
            this.dir = dir;
            Path java = Path.of(ProcessHandle.current().info().command()
                    .orElseThrow(() -> new IllegalStateException("the running java's path is unknown")));
            this.executable = java.resolveSibling("keytool").toString();
        }

        void run(String... args) {
            List<String> command = new ArrayList<>();
            command.add(executable);
            // a short-lived JVM: start fast even on a loaded machine
            command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-Xshare:auto"));
            command.addAll(List.of(args));
            command.addAll(List.of("-storepass", PASSWORD, "-storetype", "PKCS12", "-noprompt"));
            try {
                Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .start();
                process.getOutputStream().close();
                byte[] output = process.getInputStream().readAllBytes();
                if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                    process.destroyForcibly();
                    throw new IllegalStateException("keytool " + args[0] + " failed: "
                            + new String(output, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
