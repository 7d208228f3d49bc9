package dev.fleche.transport;

import dev.fleche.transport.internal.pem.KeyMaterial;
import dev.fleche.transport.internal.pem.PemException;
import dev.fleche.transport.internal.pem.SwappableContext;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * A server's TLS key material from PEM files — the shape a Kubernetes TLS Secret mounts ({@code tls.crt},
 * {@code tls.key}, {@code ca.crt}) — reloaded when they change, without a restart: {@code TlsOptions.builder(pem)}.
 * JDK only.
 *
 * <pre>{@code
 * PemFiles pem = PemFiles.builder(Path.of("/etc/tls/tls.crt"), Path.of("/etc/tls/tls.key"))
 *         .trustBundle(Path.of("/etc/tls/ca.crt"))     // optional: verifies client certificates
 *         .build();                                     // reads and checks them now
 * ServerOptions options = ServerOptions.builder().port(8443)
 *         .tls(TlsOptions.builder(pem).clientAuth(TlsOptions.ClientAuth.NEED).build()).build();
 * }</pre>
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>certificate chain</td><td>(required)</td><td>{@code CERTIFICATE} blocks, the server's own first, then
 *       the intermediates</td></tr>
 *   <tr><td>private key</td><td>(required)</td><td>unencrypted PKCS#8 ({@code PRIVATE KEY}: RSA, RSASSA-PSS, EC,
 *       Ed25519, Ed448), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1 ({@code EC PRIVATE KEY}); anything else is refused
 *       with a message naming its format and the command that converts it</td></tr>
 *   <tr><td>{@code trustBundle}</td><td>none: the JDK's default trust</td><td>the CA certificates that verify client
 *       certificates (with {@code TlsOptions.clientAuth} {@code WANT} or {@code NEED})</td></tr>
 *   <tr><td>{@code reloadInterval}</td><td>{@value #DEFAULT_RELOAD_SECONDS} s</td><td>how often a running server reads
 *       the files again ({@link Duration#ZERO}: never; {@link #reload()} still does it on demand)</td></tr>
 *   <tr><td>{@code clock}</td><td>the system clock</td><td>what "expired" and {@link #expiresWithin} are measured
 *       against (inject one in tests)</td></tr>
 * </table>
 *
 * <p><b>Rotation.</b> Every interval the running server reads the three files (following symbolic links, so a
 * Kubernetes Secret update — a {@code ..data} link swapped — is seen as an editor's write in place is). Changed
 * bytes are parsed and checked: every block whole, the key and the first certificate a pair, the certificate not
 * expired. A good set is used for every handshake from then on; connections already open keep theirs. A bad or
 * half-written set is refused with one {@code WARNING} line naming the file and the fault ({@code event=tls-reload-refused}),
 * counted ({@link #reloadFailures()}), and the material in use stays; the same bad bytes are not logged again. Files
 * that change while they are read are read again, up to three times, before a refusal.
 */
public final class PemFiles {
    /** The default {@code reloadInterval}, in seconds. */
    public static final int DEFAULT_RELOAD_SECONDS = 10;
    /** The largest file read: PEM key material is a few kilobytes; anything this large is a wrong path. */
    private static final long MAX_FILE_BYTES = 1024 * 1024;
    private static final int READ_ATTEMPTS = 3;
    private static final Logger LOG = System.getLogger("dev.fleche.transport");

    private final Path chainFile;
    private final Path keyFile;
    private final Path trustFile;
    private final Duration reloadInterval;
    private final Clock clock;
    private final SwappableContext swappable;
    private final SSLContext context;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile KeyMaterial material;
    /** The digest of the bytes in use, and of the last refused (so that a refusal is logged once). */
    private byte[] loaded;
    private String refused;

    private PemFiles(Builder builder) throws IOException {
        this.chainFile = builder.chainFile;
        this.keyFile = builder.keyFile;
        this.trustFile = builder.trustFile;
        this.reloadInterval = builder.reloadInterval;
        this.clock = builder.clock;
        byte[][] files = read();
        try {
            material = KeyMaterial.load(files[0], files[1], files[2], names(), clock.instant());
        } catch (PemException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        loaded = digest(files);
        swappable = SwappableContext.of(material.context());
        context = swappable.context();
    }

    /** A builder for the chain at {@code certificateChain} and the key at {@code privateKey}. */
    public static Builder builder(Path certificateChain, Path privateKey) {
        return new Builder(certificateChain, privateKey);
    }

    /**
     * The context to serve with: every engine it makes (every handshake) uses the material current at that moment.
     * The same object for the life of this instance.
     */
    public SSLContext sslContext() {
        return context;
    }

    /** The certificate chain in use, the server's own first. */
    public List<X509Certificate> certificates() {
        return material.chain();
    }

    /** When the certificate in use expires. */
    public Instant notAfter() {
        return material.notAfter();
    }

    /** Whether the certificate in use expires within {@code margin} of now (the clock's). */
    public boolean expiresWithin(Duration margin) {
        return material.notAfter().isBefore(clock.instant().plus(margin));
    }

    /** New material taken since this instance was built (the first load not counted). */
    public long reloads() {
        return reloads.get();
    }

    /** Changed files refused (unreadable, malformed, not a pair, expired), each distinct set counted once. */
    public long reloadFailures() {
        return failures.get();
    }

    public Path certificateChainFile() {
        return chainFile;
    }

    public Path privateKeyFile() {
        return keyFile;
    }

    /** The trust bundle's path, or null. */
    public Path trustBundleFile() {
        return trustFile;
    }

    public Duration reloadInterval() {
        return reloadInterval;
    }

    /**
     * Reads the files now and takes them when they changed and are good (what the running server does every
     * {@code reloadInterval}; tests call it to rotate without waiting). Thread-safe.
     *
     * @return whether new material is in use
     */
    public boolean reload() {
        lock.lock();
        try {
            for (int attempt = 1; ; attempt++) {
                byte[][] files;
                try {
                    files = read();
                } catch (IOException e) {
                    refuse(e.getMessage());
                    return false;
                }
                byte[] digest = digest(files);
                if (MessageDigest.isEqual(digest, loaded)) {
                    return false;
                }
                try {
                    KeyMaterial next = KeyMaterial.load(files[0], files[1], files[2], names(), clock.instant());
                    take(next, digest);
                    return true;
                } catch (PemException e) {
                    if (attempt < READ_ATTEMPTS && changedSince(digest)) {
                        continue; // written while we read: read the files again
                    }
                    refuse(e.getMessage() + " [" + hex(digest) + "]");
                    return false;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void take(KeyMaterial next, byte[] digest) {
        swappable.swap(next.context());
        material = next;
        loaded = digest;
        refused = null;
        reloads.incrementAndGet();
        LOG.log(Level.INFO, "event=tls-reload certificate=\"" + next.chain().get(0).getSubjectX500Principal()
                .getName() + "\" notAfter=" + next.notAfter() + " file=" + chainFile);
    }

    /** One line per distinct refusal; the material in use stays. */
    private void refuse(String reason) {
        if (reason.equals(refused)) {
            return;
        }
        refused = reason;
        failures.incrementAndGet();
        LOG.log(Level.WARNING, "event=tls-reload-refused reason=\"" + reason.replace('"', '\'')
                + "\" keeping=\"" + material.chain().get(0).getSubjectX500Principal().getName() + "\" notAfter="
                + material.notAfter());
    }

    private boolean changedSince(byte[] digest) {
        try {
            return !MessageDigest.isEqual(digest, digest(read()));
        } catch (IOException e) {
            return true;
        }
    }

    private List<String> names() {
        return List.of(chainFile.toString(), keyFile.toString(), String.valueOf(trustFile));
    }

    private byte[][] read() throws IOException {
        return new byte[][] {read(chainFile), read(keyFile), trustFile == null ? null : read(trustFile)};
    }

    private static byte[] read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw new IOException(file + " is larger than " + MAX_FILE_BYTES + " bytes: not PEM key material");
            }
            return bytes;
        } catch (IOException e) {
            throw e.getMessage() != null && e.getMessage().contains(file.toString()) ? e
                    : new IOException(file + " cannot be read: " + e, e);
        }
    }

    private static byte[] digest(byte[][] files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (byte[] file : files) {
                sha.update(file == null ? new byte[] {-1} : file);
                sha.update((byte) 0);
            }
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has SHA-256", e);
        }
    }

    private static String hex(byte[] digest) {
        return java.util.HexFormat.of().formatHex(digest, 0, 6);
    }

    /** Builds {@link PemFiles}; every setter returns {@code this}. */
    public static final class Builder {
        private final Path chainFile;
        private final Path keyFile;
        private Path trustFile;
        private Duration reloadInterval = Duration.ofSeconds(DEFAULT_RELOAD_SECONDS);
        private Clock clock = Clock.systemUTC();

        private Builder(Path chainFile, Path keyFile) {
            this.chainFile = Objects.requireNonNull(chainFile, "certificateChain");
            this.keyFile = Objects.requireNonNull(keyFile, "privateKey");
        }

        /** CA certificates that verify client certificates; {@code null} (the default): the JDK's default trust. */
        public Builder trustBundle(Path value) { trustFile = value; return this; }
        /** How often a running server reads the files again; {@link Duration#ZERO}: never. */
        public Builder reloadInterval(Duration value) { reloadInterval = value; return this; }
        public Builder clock(Clock value) { clock = value; return this; }

        /**
         * Reads and checks the files.
         *
         * @throws IOException              a file cannot be read
         * @throws IllegalArgumentException the files are not usable key material; the message names the file and
         *                                  the fault (a key format, a cut block, a key that is not the
         *                                  certificate's, an expired certificate)
         */
        public PemFiles build() throws IOException {
            Objects.requireNonNull(reloadInterval, "reloadInterval");
            Objects.requireNonNull(clock, "clock");
            if (reloadInterval.isNegative()) {
                throw new IllegalArgumentException("reloadInterval must not be negative, was " + reloadInterval);
            }
            return new PemFiles(this);
        }
    }
}
