package dev.fleche.perf.loadgen;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The generator's TLS client side: one JDK {@link SSLContext} per run that trusts any server certificate (the
 * benchmark's certificates are self-signed, generated for {@code localhost}), and a fresh {@link SSLEngine} per
 * connection, in client mode, with SNI {@code localhost} and the JDK's default protocols and cipher suites.
 *
 * <p>{@link LoadSpec.Tls#RESUME}: every connection slot ({@link Conn#index}) is a client of its own, with its own
 * context and so its own session cache; its engines are created for the peer {@code localhost:PORT}, so the JDK
 * offers the slot's last session again (TLS 1.3 PSK from a session ticket, TLS 1.2 session id or ticket). One
 * cache for all slots would not do: the JDK keeps one session per peer and uses a TLS 1.3 ticket once, so
 * connections that reconnect together would find it used and fall back to full handshakes.
 * {@link LoadSpec.Tls#FULL}: one context, engines created without a peer, which the JDK never resumes: every
 * handshake is a full one. Either way {@link TlsLink} tells from the session which one happened.
 *
 * <p>Threads: a slot's context is made and used by the worker thread that owns the slot only.
 */
final class TlsClient {
    /** The name the benchmark's certificates are for, sent as SNI. */
    static final String SERVER_NAME = "localhost";

    private final SSLContext shared;
    private final SSLContext[] perSlot;
    private final LoadSpec.Tls mode;
    private final int port;

    /** For {@code slots} connection slots (indexes 0 .. slots-1). */
    TlsClient(LoadSpec.Tls mode, int port, int slots) {
        if (mode == LoadSpec.Tls.NONE) {
            throw new IllegalArgumentException("no TLS");
        }
        this.mode = mode;
        this.port = port;
        this.shared = mode == LoadSpec.Tls.FULL ? trustingContext() : null;
        this.perSlot = mode == LoadSpec.Tls.RESUME ? new SSLContext[slots] : null;
    }

    /** A new client context that trusts any server certificate (its own session cache). */
    static SSLContext trustingContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAll()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS context", e);
        }
    }

    /** A client engine for a new connection of slot {@code slot}. */
    SSLEngine newEngine(int slot) {
        SSLEngine engine;
        if (mode == LoadSpec.Tls.RESUME) {
            if (perSlot[slot] == null) {
                perSlot[slot] = trustingContext();
            }
            engine = perSlot[slot].createSSLEngine(SERVER_NAME, port);
        } else {
            engine = shared.createSSLEngine();
        }
        engine.setUseClientMode(true);
        SSLParameters p = engine.getSSLParameters();
        p.setServerNames(List.of(new SNIHostName(SERVER_NAME)));
        engine.setSSLParameters(p);
        return engine;
    }

    /** Accepts every certificate: the benchmark measures servers, not certificate checks. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
