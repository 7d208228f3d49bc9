package dev.fleche.transport.internal.pem;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An {@link SSLContext} whose engines come from the current one of a series of contexts ({@link #swap}): the one
 * object a server is configured with while its certificates rotate. Every new engine — every new handshake — is made
 * by the context current at that moment; an engine already made keeps its own (a connection in flight keeps its
 * certificate). Each context has its own session cache and ticket keys, so a session of the old certificate does
 * not resume on the new one: a client that connects after a swap sees the new certificate. The JDK's
 * {@link SSLContextSpi} is the documented way to provide a context.
 */
public final class SwappableContext extends SSLContextSpi {
    private volatile SSLContext current;

    private SwappableContext(SSLContext first) {
        this.current = first;
    }

    /** A context that starts with {@code first}'s material; {@link #swap} changes it. */
    public static SwappableContext of(SSLContext first) {
        return new SwappableContext(first);
    }

    /** The {@link SSLContext} to hand out: its engines are made by the current context. */
    public SSLContext context() {
        SSLContext first = current;
        return new SSLContext(this, first.getProvider(), first.getProtocol()) {
        };
    }

    /** New engines are made by {@code next} from now on. */
    public void swap(SSLContext next) {
        current = next;
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) throws KeyManagementException {
        throw new KeyManagementException("initialised from PEM files: nothing to initialise");
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
        return current.getSocketFactory();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
        return current.getServerSocketFactory();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
        return current.createSSLEngine();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
        return current.createSSLEngine(host, port);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
        return current.getServerSessionContext();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
        return current.getClientSessionContext();
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
        return current.getDefaultSSLParameters();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
        return current.getSupportedSSLParameters();
    }
}
