package dev.fleche.transport;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * What a TLS handshake settled, fixed once it completed: for the exchange ({@code isSecure()}, the negotiated
 * protocol and cipher suite, the host name the client asked for, the client's certificate chain).
 *
 * @param protocol            the protocol version, e.g. {@code TLSv1.3}
 * @param cipherSuite         the cipher suite, e.g. {@code TLS_AES_128_GCM_SHA256}
 * @param applicationProtocol the protocol ALPN selected ({@code http/1.1}), or {@code null} when the client offered
 *                            no ALPN
 * @param sniHostName         the host name of the client's SNI extension, or {@code null} when it sent none
 * @param peerCertificates    the client's verified certificate chain, its own certificate first; empty when client
 *                            authentication is off or the client presented none
 */
public record TlsInfo(
        String protocol,
        String cipherSuite,
        String applicationProtocol,
        String sniHostName,
        List<X509Certificate> peerCertificates) {

    /** Checks the required parts and copies the chain. */
    public TlsInfo {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(cipherSuite, "cipherSuite");
        peerCertificates = List.copyOf(Objects.requireNonNull(peerCertificates, "peerCertificates"));
    }
}
