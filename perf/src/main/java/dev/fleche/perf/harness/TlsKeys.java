package dev.fleche.perf.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's key material: one self-signed certificate per {@link KeyType} for {@code localhost} and
 * 127.0.0.1, generated with the JDK's {@code keytool} at run time into a PKCS12 store with the fixed
 * {@link #PASSWORD}. Every TLS target gets the same file ({@code --tls FILE PASSWORD}, see
 * {@code dev.fleche.perf.app.PeerTls}); nothing of value is kept: the stores are made again on every run.
 */
public final class TlsKeys {
    /** The password of every store and key (throw-away keys for loopback benchmarks). */
    public static final String PASSWORD = "fleche-perf";

    /** The key types the issue compares. */
    public enum KeyType {
        EC("ec", "ECDSA P-256", List.of("-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA")),
        RSA("rsa", "RSA 2048", List.of("-keyalg", "RSA", "-keysize", "2048", "-sigalg", "SHA256withRSA"));

        final String id;
        final String label;
        private final List<String> keytoolArgs;

        KeyType(String id, String label, List<String> keytoolArgs) {
            this.id = id;
            this.label = label;
            this.keytoolArgs = keytoolArgs;
        }

        /** The store's file name in the key directory, e.g. {@code ec.p12}. */
        String fileName() {
            return id + ".p12";
        }

        static KeyType of(String id) {
            for (KeyType k : values()) {
                if (k.id.equals(id.toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown key type '" + id + "' (ec, rsa)");
        }
    }

    /** Where the harness keeps the stores, relative to the repository root (target commands run there). */
    static final String DIR = "perf/results/tmp/tls";

    private TlsKeys() {
    }

    /**
     * Generates a fresh store for {@code type} in {@code dir} (replacing an old one) with the {@code keytool} of
     * {@code jdkBin} (null: the running JDK's); returns its path.
     */
    public static Path generate(Path dir, KeyType type, Path jdkBin) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path store = dir.resolve(type.fileName());
        Files.deleteIfExists(store);
        Path bin = jdkBin != null ? jdkBin : Path.of(System.getProperty("java.home"), "bin");
        Path keytool = bin.resolve("keytool");
        List<String> cmd = new ArrayList<>(List.of(Files.isExecutable(keytool) ? keytool.toString() : "keytool",
                "-genkeypair", "-alias", "server"));
        cmd.addAll(type.keytoolArgs);
        cmd.addAll(List.of("-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "30",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool did not finish within 60 s");
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(store)) {
            throw new IOException("keytool failed (" + p.exitValue() + "): " + out.trim());
        }
        return store;
    }
}
