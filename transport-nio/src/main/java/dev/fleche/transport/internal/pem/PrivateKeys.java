package dev.fleche.transport.internal.pem;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A private key from the PEM block it came in, with the JDK's {@link KeyFactory}: PKCS#8 ({@code PRIVATE KEY}: RSA,
 * RSASSA-PSS, EC, Ed25519, Ed448, DSA), PKCS#1 ({@code RSA PRIVATE KEY}, OpenSSL's "traditional" RSA) and SEC1
 * ({@code EC PRIVATE KEY}, its named curve in the key or in an {@code EC PARAMETERS} block before it). The two older
 * formats are wrapped into PKCS#8 (RFC 5208) around their own bytes, as the JDK reads only that. Anything else is
 * refused with a message naming its format and the OpenSSL command that converts it.
 */
public final class PrivateKeys {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] RSA = HEX.parseHex("2a864886f70d010101");
    private static final byte[] RSA_PSS = HEX.parseHex("2a864886f70d01010a");
    private static final byte[] EC = HEX.parseHex("2a8648ce3d0201");
    private static final byte[] ED25519 = HEX.parseHex("2b6570");
    private static final byte[] ED448 = HEX.parseHex("2b6571");
    private static final byte[] DSA = HEX.parseHex("2a8648ce380401");
    private static final String TO_PKCS8 = "openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8";

    private PrivateKeys() {
    }

    /** The first private key among {@code blocks} (certificates and parameters skipped). */
    public static PrivateKey from(List<PemBlocks.Block> blocks, String source) throws PemException {
        byte[] curve = null;
        for (PemBlocks.Block block : blocks) {
            switch (block.label()) {
                case "PRIVATE KEY":
                    return pkcs8(block.der(), source, "PKCS#8");
                case "RSA PRIVATE KEY":
                    refuseEncrypted(block, source, "PKCS#1 RSA");
                    return pkcs8(Der.write(Der.SEQUENCE, Der.write(Der.INTEGER, new byte[] {0}),
                            Der.write(Der.SEQUENCE, Der.write(Der.OID, RSA), Der.write(Der.NULL)),
                            Der.write(Der.OCTET_STRING, block.der())), source, "PKCS#1 RSA");
                case "EC PRIVATE KEY":
                    refuseEncrypted(block, source, "SEC1 EC");
                    return sec1(block.der(), curve, source);
                case "EC PARAMETERS":
                    curve = namedCurve(block.der(), source);
                    break;
                case "ENCRYPTED PRIVATE KEY":
                    throw new PemException(source + ": an encrypted PKCS#8 key; Fleche reads unencrypted keys "
                            + "(the file's permissions protect it): openssl pkcs8 -in KEY -out KEY.pkcs8");
                case "OPENSSH PRIVATE KEY":
                    throw new PemException(source + ": an OpenSSH key, not a TLS key (PKCS#8, PKCS#1 or SEC1)");
                case "CERTIFICATE":
                case "TRUSTED CERTIFICATE":
                    break;
                default:
                    if (block.label().endsWith("PRIVATE KEY")) {
                        throw new PemException(source + ": a " + block.label() + " block is not a supported key "
                                + "format (PKCS#8, PKCS#1 RSA, SEC1 EC): " + TO_PKCS8);
                    }
                    break;
            }
        }
        throw new PemException(source + ": no private key block (PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
    }

    private static void refuseEncrypted(PemBlocks.Block block, String source, String format) throws PemException {
        for (String header : block.headers()) {
            if (header.startsWith("Proc-Type:") && header.contains("ENCRYPTED")) {
                throw new PemException(source + ": an encrypted " + format + " key (Proc-Type: ENCRYPTED); Fleche "
                        + "reads unencrypted keys: " + TO_PKCS8);
            }
        }
    }

    /** PKCS#8 PrivateKeyInfo: version, AlgorithmIdentifier, the key; the algorithm decides the KeyFactory. */
    private static PrivateKey pkcs8(byte[] der, String source, String format) throws PemException {
        String algorithm;
        try {
            Der.Tlv info = Der.expect(Der.SEQUENCE, der, 0, der.length, "PrivateKeyInfo");
            Der.Tlv version = Der.expect(Der.INTEGER, der, info.from(), info.to(), "PrivateKeyInfo.version");
            Der.Tlv identifier = Der.expect(Der.SEQUENCE, der, version.next(), info.to(), "AlgorithmIdentifier");
            Der.Tlv oid = Der.expect(Der.OID, der, identifier.from(), identifier.to(), "algorithm");
            algorithm = algorithm(oid.content(), source);
        } catch (PemException e) {
            throw new PemException(source + ": not a " + format + " private key", e);
        }
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new PemException(source + ": the " + format + " " + algorithm + " key cannot be read", e);
        }
    }

    private static String algorithm(byte[] oid, String source) throws PemException {
        if (Arrays.equals(oid, RSA)) {
            return "RSA";
        }
        if (Arrays.equals(oid, RSA_PSS)) {
            return "RSASSA-PSS";
        }
        if (Arrays.equals(oid, EC)) {
            return "EC";
        }
        if (Arrays.equals(oid, ED25519)) {
            return "Ed25519";
        }
        if (Arrays.equals(oid, ED448)) {
            return "Ed448";
        }
        if (Arrays.equals(oid, DSA)) {
            return "DSA";
        }
        throw new PemException(source + ": a key of algorithm " + Der.dotted(oid)
                + ", not one a TLS server signs with (RSA, RSASSA-PSS, EC, Ed25519, Ed448)");
    }

    /**
     * SEC1 ECPrivateKey (RFC 5915): version 1, the private value, {@code [0]} the named curve, {@code [1]} the public
     * key; wrapped in PKCS#8 with the curve as the algorithm's parameters.
     */
    private static PrivateKey sec1(byte[] der, byte[] curveBefore, String source) throws PemException {
        byte[] curve = curveBefore;
        try {
            Der.Tlv key = Der.expect(Der.SEQUENCE, der, 0, der.length, "ECPrivateKey");
            Der.Tlv version = Der.expect(Der.INTEGER, der, key.from(), key.to(), "ECPrivateKey.version");
            Der.Tlv secret = Der.expect(Der.OCTET_STRING, der, version.next(), key.to(), "ECPrivateKey.privateKey");
            if (secret.next() < key.to()) {
                Der.Tlv next = Der.read(der, secret.next(), key.to());
                if (next.tag() == Der.CONTEXT_0) {
                    curve = Der.expect(Der.OID, der, next.from(), next.to(), "ECPrivateKey.parameters").content();
                }
            }
        } catch (PemException e) {
            throw new PemException(source + ": not a SEC1 EC private key", e);
        }
        if (curve == null) {
            throw new PemException(source + ": a SEC1 EC key without its named curve (no parameters, no EC PARAMETERS "
                    + "block): " + TO_PKCS8);
        }
        return pkcs8(Der.write(Der.SEQUENCE, Der.write(Der.INTEGER, new byte[] {0}),
                Der.write(Der.SEQUENCE, Der.write(Der.OID, EC), Der.write(Der.OID, curve)),
                Der.write(Der.OCTET_STRING, der)), source, "SEC1 EC");
    }

    /** An {@code EC PARAMETERS} block: a named curve's OID (explicit parameters are refused). */
    private static byte[] namedCurve(byte[] der, String source) throws PemException {
        try {
            return Der.expect(Der.OID, der, 0, der.length, "EC PARAMETERS").content();
        } catch (PemException e) {
            throw new PemException(source + ": EC PARAMETERS that are not a named curve", e);
        }
    }
}
