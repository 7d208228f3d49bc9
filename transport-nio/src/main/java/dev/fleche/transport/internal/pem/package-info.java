/**
 * TLS key material from PEM files ({@code PemFiles}), read, checked and rotated without a restart.
 *
 * <p>Owns: {@code KeyMaterial}, {@code PemBlocks}, {@code PrivateKeys} and {@code Der} (PKCS#1 and SEC1 keys wrapped
 * into PKCS#8), {@code SwappableContext} (the one {@code SSLContext} whose engines come from the current material),
 * {@code PemWatch} (the reload thread), {@code PemException}.
 *
 * <p>May import: the public API only.
 */
package dev.fleche.transport.internal.pem;
