package dev.fleche.transport.internal.channel;

import dev.fleche.transport.TlsInfo;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * What a {@link TlsChannel}'s first handshake settled, as the application sees it ({@link TlsInfo}): the protocol,
 * the cipher suite, the ALPN protocol, the SNI host name the client asked for and the client's certificate chain.
 * Read once, when the first handshake is done; holds nothing.
 */
final class SettledSession {
    private SettledSession() {
    }

    static TlsInfo describe(SSLEngine engine) {
        SSLSession session = engine.getSession();
        String alpn = engine.getApplicationProtocol();
        return new TlsInfo(session.getProtocol(), session.getCipherSuite(),
                alpn == null || alpn.isEmpty() ? null : alpn, sniHostName(session), peerChain(session));
    }

    private static String sniHostName(SSLSession session) {
        if (session instanceof ExtendedSSLSession extended) {
            for (SNIServerName name : extended.getRequestedServerNames()) {
                if (name instanceof SNIHostName host) {
                    return host.getAsciiName();
                }
            }
        }
        return null;
    }

    private static List<X509Certificate> peerChain(SSLSession session) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
        List<X509Certificate> x509 = new ArrayList<>(chain.length);
        for (Certificate certificate : chain) {
            if (certificate instanceof X509Certificate c) {
                x509.add(c);
            }
        }
        return x509;
    }
}
