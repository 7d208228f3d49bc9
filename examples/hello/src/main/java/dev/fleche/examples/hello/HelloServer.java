package dev.fleche.examples.hello;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Hello, World on Jersey and Fleche: {@code GET /hello}, {@code GET /json}, {@code POST /echo},
 * {@code GET /async?delayMs=N}. Prints {@code READY <port>} once listening.
 *
 * <pre>
 * HelloServer [PORT]                                      HTTP on PORT (default 8080)
 * HelloServer [PORT] --https                              HTTPS on PORT (default 8443) with a self-signed
 *                                                         certificate for localhost, made at start with the JDK's
 *                                                         keytool; its SHA-256 fingerprint is printed
 * HelloServer [PORT] --https --keystore FILE --password PASSWORD
 *                                                         HTTPS with the key in a PKCS12 key store
 * </pre>
 *
 * With Maven: {@code mvn -q -pl examples/hello exec:java -Dexec.args="--https"}, then
 * {@code curl -k https://localhost:8443/hello} ({@code -k}: curl cannot verify a self-signed certificate).
 */
public final class HelloServer {
    private HelloServer() {
    }

    /** The application: the resources, Jackson for JSON (malformed input answered with 400), no WADL. */
    public static ResourceConfig application() {
        return new ResourceConfig(HelloResource.class)
                .register(JacksonJsonProvider.class)
                .register(JsonErrorMapper.class) // bad JSON in a request: 400 with a clear body, not 500
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** Starts the server on {@code port} (0: a free one) on all interfaces. */
    public static FlecheHttpServer start(int port) {
        return FlecheHttpServerFactory.createServer(URI.create("http://0.0.0.0:" + port + "/"), application());
    }

    /** Starts an HTTPS server on {@code port} (0: a free one) on all interfaces, with {@code ssl}'s key. */
    public static FlecheHttpServer startHttps(int port, SSLContext ssl) {
        return FlecheHttpServerFactory.createServer(URI.create("https://0.0.0.0:" + port + "/"), application(), ssl);
    }

    /** An SSL context serving the key in {@code keys} (protected by {@code password}). */
    public static SSLContext sslContext(KeyStore keys, char[] password) throws GeneralSecurityException {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
    }

    /** Loads a PKCS12 key store. */
    public static KeyStore loadKeyStore(Path file, char[] password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        return store;
    }

    /**
     * A new self-signed ECDSA P-256 key and certificate for {@code localhost} and {@code 127.0.0.1} (valid 30 days),
     * made with the JDK's {@code keytool} in a temporary directory that is deleted before returning; the key store
     * (alias {@code hello}) is protected by {@code password}.
     */
    public static KeyStore selfSigned(char[] password) throws IOException, GeneralSecurityException {
        Path dir = Files.createTempDirectory("fleche-hello-tls");
        try {
            Path store = dir.resolve("hello.p12");
            String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            String pass = new String(password);
            Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "hello",
                    "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                    "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "30", "-storetype", "PKCS12",
                    "-keystore", store.toString(), "-storepass", pass, "-keypass", pass))
                    .redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool failed: " + new String(output, java.nio.charset.StandardCharsets.UTF_8));
            }
            return loadKeyStore(store, password);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** The SHA-256 fingerprint of the first certificate in {@code keys}, as {@code AB:CD:...}. */
    public static String fingerprint(KeyStore keys) throws GeneralSecurityException {
        String alias = keys.aliases().nextElement();
        X509Certificate certificate = (X509Certificate) keys.getCertificate(alias);
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    }

    public static void main(String[] args) throws Exception {
        Integer port = null;
        boolean https = false;
        Path keystore = null;
        char[] password = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--https" -> https = true;
                case "--keystore" -> keystore = Path.of(args[++i]);
                case "--password" -> password = args[++i].toCharArray();
                default -> port = Integer.parseInt(args[i]);
            }
        }
        FlecheHttpServer server;
        if (!https) {
            server = start(port == null ? 8080 : port);
        } else {
            KeyStore keys;
            if (keystore != null) {
                if (password == null) {
                    throw new IllegalArgumentException("--keystore needs --password");
                }
                keys = loadKeyStore(keystore, password);
            } else {
                password = randomPassword();
                keys = selfSigned(password);
                System.out.println("self-signed certificate for localhost, SHA-256 fingerprint " + fingerprint(keys));
            }
            server = startHttps(port == null ? 8443 : port, sslContext(keys, password));
        }
        FlecheHttpServer running = server;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hello-shutdown"));
        System.out.println("READY " + server.port());
    }

    private static char[] randomPassword() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).toCharArray();
    }
}
