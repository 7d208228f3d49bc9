package dev.fleche.perf.app;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/**
 * The one TLS convention of every benchmark target (Fleche's and the peers'): the command line ends with
 * {@code --tls KEYSTORE PASSWORD}, a PKCS12 key store holding one private key and its self-signed certificate
 * (ECDSA P-256 or RSA 2048, for {@code localhost} and 127.0.0.1), the password being the store's and the key's.
 * The harness generates the stores ({@code dev.fleche.perf.harness.TlsKeys}) and passes the same files to every
 * target. Without {@code --tls} a target serves plain HTTP.
 *
 * @param keyStore the path given
 * @param password its password (store and key)
 */
public record PeerTls(Path keyStore, String password) {

    /** The option that turns TLS on. */
    public static final String OPTION = "--tls";

    /** {@code --tls KEYSTORE PASSWORD} from {@code args}, or null when absent. */
    public static PeerTls fromArgs(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(OPTION)) {
                if (i + 2 >= args.length) {
                    throw new IllegalArgumentException("usage: ... --tls KEYSTORE PASSWORD");
                }
                return new PeerTls(Path.of(args[i + 1]), args[i + 2]);
            }
        }
        return null;
    }

    /** The loaded PKCS12 store. */
    public KeyStore load() throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, password.toCharArray());
        }
        return ks;
    }

    /** Key managers over the store (the JDK's default algorithm). */
    public KeyManagerFactory keyManagers() throws IOException, GeneralSecurityException {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(), password.toCharArray());
        return kmf;
    }

    /** A server {@code SSLContext} ({@code "TLS"}, the JDK's provider and defaults) with the store's key. */
    public SSLContext serverContext() throws IOException, GeneralSecurityException {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(keyManagers().getKeyManagers(), null, null);
        return ctx;
    }
}
