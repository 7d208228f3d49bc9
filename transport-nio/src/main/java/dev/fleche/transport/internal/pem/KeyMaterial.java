package dev.fleche.transport.internal.pem;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * One loaded, checked set of key material: the certificate chain (the server's own first), its private key, the
 * trust bundle for client certificates (or none), and the {@link SSLContext} made of them. Checked before it is used:
 * the chain is not empty, the key signs what the first certificate's public key verifies (they are a pair), the
 * certificate has not expired. Immutable.
 */
public final class KeyMaterial {
    private static final char[] PASSWORD = "fleche".toCharArray(); // of the in-memory key store only

    private final List<X509Certificate> chain;
    private final List<X509Certificate> trusted;
    private final SSLContext context;

    private KeyMaterial(List<X509Certificate> chain, List<X509Certificate> trusted, SSLContext context) {
        this.chain = chain;
        this.trusted = trusted;
        this.context = context;
    }

    /**
     * Reads and checks the material.
     *
     * @param chainPem  the certificate chain file's bytes ({@code CERTIFICATE} blocks, the server's own first)
     * @param keyPem    the private key file's bytes
     * @param trustPem  the trust bundle's bytes, or null for none (the JDK's default trust then verifies clients)
     * @param names     how messages name the three files
     * @param now       the current time: an expired certificate is refused
     */
    public static KeyMaterial load(byte[] chainPem, byte[] keyPem, byte[] trustPem, List<String> names, Instant now)
            throws PemException {
        List<X509Certificate> chain = certificates(chainPem, names.get(0));
        PrivateKey key = PrivateKeys.from(PemBlocks.parse(keyPem, names.get(1)), names.get(1));
        X509Certificate leaf = chain.get(0);
        if (!pair(key, leaf.getPublicKey())) {
            throw new PemException(names.get(1) + " does not match the first certificate of " + names.get(0) + " ("
                    + leaf.getSubjectX500Principal().getName() + "): not a pair; a pair written one file at a "
                    + "time is taken once both are complete");
        }
        if (leaf.getNotAfter().toInstant().isBefore(now)) {
            throw new PemException(names.get(0) + ": the certificate " + leaf.getSubjectX500Principal().getName()
                    + " expired at " + leaf.getNotAfter().toInstant());
        }
        List<X509Certificate> trusted = trustPem == null ? List.of() : certificates(trustPem, names.get(2));
        try {
            return new KeyMaterial(chain, trusted, context(key, chain, trustPem == null ? null : trusted));
        } catch (KeyStoreException e) {
            throw new PemException(names.get(0) + ": the certificates are not a chain (each after the first must "
                    + "have signed the one before it)", e);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new PemException("the key material of " + names.get(0) + " cannot make an SSLContext", e);
        }
    }

    /** The certificates of the chain, the server's own first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** The trust bundle's certificates (empty when there is none). */
    public List<X509Certificate> trusted() {
        return trusted;
    }

    /** The context serving this material. */
    public SSLContext context() {
        return context;
    }

    /** When the server's certificate expires. */
    public Instant notAfter() {
        return chain.get(0).getNotAfter().toInstant();
    }

    private static List<X509Certificate> certificates(byte[] pem, String source) throws PemException {
        List<X509Certificate> certificates = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (GeneralSecurityException e) {
            throw new PemException("the JDK has no X.509 certificate factory", e);
        }
        for (PemBlocks.Block block : PemBlocks.parse(pem, source)) {
            if (!block.label().equals("CERTIFICATE")) {
                continue;
            }
            try {
                certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
            } catch (GeneralSecurityException e) {
                throw new PemException(source + ": certificate " + (certificates.size() + 1) + " cannot be read", e);
            }
        }
        if (certificates.isEmpty()) {
            throw new PemException(source + ": no CERTIFICATE block");
        }
        return List.copyOf(certificates);
    }

    /** Whether {@code key} signs what {@code publicKey} verifies: the one test that works for every key type. */
    private static boolean pair(PrivateKey key, PublicKey publicKey) throws PemException {
        if (!key.getAlgorithm().equals(publicKey.getAlgorithm())
                && !(key.getAlgorithm().startsWith("Ed") && publicKey.getAlgorithm().startsWith("Ed"))) {
            return false;
        }
        byte[] probe = new byte[32];
        new SecureRandom().nextBytes(probe);
        try {
            Signature signer = signature(key.getAlgorithm());
            signer.initSign(key);
            signer.update(probe);
            byte[] signed = signer.sign();
            Signature verifier = signature(key.getAlgorithm());
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signed);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static Signature signature(String algorithm) throws GeneralSecurityException {
        switch (algorithm) {
            case "RSA":
                return Signature.getInstance("SHA256withRSA");
            case "EC":
                return Signature.getInstance("SHA256withECDSA");
            case "DSA":
                return Signature.getInstance("SHA256withDSA");
            case "RSASSA-PSS":
                Signature pss = Signature.getInstance("RSASSA-PSS");
                pss.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
                return pss;
            default:
                return Signature.getInstance(algorithm); // EdDSA, Ed25519, Ed448
        }
    }

    private static SSLContext context(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> trusted)
            throws GeneralSecurityException, java.io.IOException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", key, PASSWORD, chain.toArray(new X509Certificate[0]));
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD);
        TrustManagerFactory trustManagers = null;
        if (trusted != null) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (int i = 0; i < trusted.size(); i++) {
                trust.setCertificateEntry("ca-" + i, trusted.get(i));
            }
            trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers == null ? null : trustManagers.getTrustManagers(),
                null);
        return context;
    }
}
