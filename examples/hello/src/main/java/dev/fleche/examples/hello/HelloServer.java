package dev.fleche.examples.hello;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.FlecheProperties;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Hello, World on Jersey and Fleche: {@code GET /hello}, {@code GET /json}, {@code POST /echo},
 * {@code GET /async?delayMs=N}. Prints {@code READY <port>} once listening.
 *
 * <pre>
 * HelloServer [PORT]                                      HTTP on PORT (default: $PORT, else 8080)
 * HelloServer [PORT] --https                              HTTPS on PORT (default 8443) with a self-signed
 *                                                         certificate for localhost, made at start with the JDK's
 *                                                         keytool; its SHA-256 fingerprint is printed
 * HelloServer [PORT] --https --keystore FILE --password PASSWORD
 *                                                         HTTPS with the key in a PKCS12 key store
 * </pre>
 *
 * With Maven: {@code mvn -q -pl examples/hello exec:java -Dexec.args="--https"}, then
 * {@code curl -k https://localhost:8443/hello} ({@code -k}: curl cannot verify a self-signed certificate).
 * Bad arguments: the reason and {@link #USAGE} on standard error, exit code 2.
 */
public final class HelloServer {
    private HelloServer() {
    }

    /**
     * The application: the resources, Jackson for JSON (malformed input answered with 400), no WADL. Everything it
     * uses is registered here, so it runs with Fleche's closed-world preset ({@link FlecheProperties#FAST_START}:
     * no auto-discovery or {@code META-INF/services} lookup, no start-up validation of the resource model), which
     * halves the work of a start — what a native executable's first response waits for.
     */
    public static ResourceConfig application() {
        return new ResourceConfig(HelloResource.class)
                .register(JacksonJsonProvider.class)
                .register(JsonErrorMapper.class) // bad JSON in a request: 400 with a clear body, not 500
                .property(ServerProperties.WADL_FEATURE_DISABLE, true)
                .property(FlecheProperties.FAST_START, true);
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

    static final String USAGE = "usage: HelloServer [PORT] [--https [--keystore FILE.p12 --password PASSWORD]]"
            + "   (PORT 0..65535, 0 for any free one; default: $PORT, else 8080, or 8443 with --https)";

    public static void main(String[] args) throws Exception {
        Integer port = null;
        boolean https = false;
        Path keystore = null;
        char[] password = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--https" -> https = true;
                    case "--keystore" -> keystore = Path.of(value(args, ++i, "--keystore"));
                    case "--password" -> password = value(args, ++i, "--password").toCharArray();
                    default -> {
                        if (port != null || args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unexpected argument: " + args[i]);
                        }
                        port = port(args[i]);
                    }
                }
            }
            if (port == null && System.getenv("PORT") != null) {
                port = port(System.getenv("PORT"));
            }
            if (keystore != null && password == null) {
                throw new IllegalArgumentException("--keystore needs --password");
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        }
        FlecheHttpServer server;
        if (!https) {
            server = start(port == null ? 8080 : port);
        } else {
            KeyStore keys;
            if (keystore != null) {
                keys = loadKeyStore(keystore, password);
            } else {
                password = randomPassword();
                keys = selfSigned(password);
                System.out.println("self-signed certificate for localhost, SHA-256 fingerprint " + fingerprint(keys));
            }
            server = startHttps(port == null ? 8443 : port, sslContext(keys, password));
        }
        FlecheHttpServer running = server;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "hello-shutdown"));
        System.out.println("READY " + server.port());
        // main returns only once the stop is done: under `mvn exec:java` a returning main lets the plugin close
        // the class loader while the shutdown hook still runs (NoClassDefFoundError in the middle of the stop).
        stopped.await();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** A port number 0..65535, else IllegalArgumentException. */
    private static int port(String value) {
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a port number: " + value, e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range 0..65535: " + value);
        }
        return port;
    }

    private static char[] randomPassword() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).toCharArray();
    }
}
