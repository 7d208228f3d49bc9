package dev.fleche.transport;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The TLS settings of an HTTPS listener ({@link ServerOptions#tls()}): immutable, built by
 * {@link #builder(SSLContext)}, validated by {@link Builder#build()}.
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code sslContext}</td><td>(required)</td><td>the keys and trust of the server; one context for every
 *       connection, so TLS sessions resume across connections</td></tr>
 *   <tr><td>{@code clientAuth}</td><td>{@link ClientAuth#NONE}</td><td>whether a client certificate is requested
 *       ({@code WANT}) or required ({@code NEED}); a presented chain is verified by the context's trust
 *       managers</td></tr>
 *   <tr><td>{@code protocols}</td><td>{@code TLSv1.3}, {@code TLSv1.2}</td><td>the protocol versions enabled;
 *       each must be supported by the context</td></tr>
 *   <tr><td>{@code cipherSuites}</td><td>empty: the JDK's defaults</td><td>the cipher suites enabled; each must
 *       be supported by the context</td></tr>
 *   <tr><td>{@code handshakeTimeout}</td><td>10 s</td><td>a handshake not complete after this closes the
 *       connection (on the reactor timer)</td></tr>
 *   <tr><td>{@code pem}</td><td>{@code null}</td><td>set by {@link #builder(PemFiles)}: the PEM files
 *       {@code sslContext} serves, which the running server reads again every {@code reloadInterval} and rotates
 *       without a restart ({@link PemFiles})</td></tr>
 * </table>
 *
 * <p>ALPN is not a setting here: the server advertises {@code h2} then {@code http/1.1} ({@code http/1.1} only when
 * {@code ServerOptions.http2Alpn} is off). A client that offers neither gets a {@code no_application_protocol}
 * alert and the handshake fails; a client that offers no ALPN is served HTTP/1.1. Client-initiated renegotiation is always refused.
 */
public record TlsOptions(
        SSLContext sslContext,
        ClientAuth clientAuth,
        List<String> protocols,
        List<String> cipherSuites,
        Duration handshakeTimeout,
        PemFiles pem) {

    /** Whether the server asks the client for a certificate. */
    public enum ClientAuth {
        /** No certificate is requested. */
        NONE,
        /** A certificate is requested; the handshake succeeds without one (an invalid one still fails it). */
        WANT,
        /** A valid certificate is required; the handshake fails without one. */
        NEED
    }

    /** The protocol versions enabled by default, newest first. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** The application protocol ALPN falls back to (and the only one when HTTP/2 over ALPN is off). */
    public static final String ALPN_HTTP_1_1 = "http/1.1";

    /** HTTP/2 over TLS (RFC 9113 3.2), advertised first unless {@code ServerOptions.http2Alpn} is off. */
    public static final String ALPN_H2 = "h2";

    /** Validates every setting; use {@link #builder(SSLContext)} rather than this constructor. */
    public TlsOptions {
        Objects.requireNonNull(sslContext, "sslContext");
        Objects.requireNonNull(clientAuth, "clientAuth");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        protocols = List.copyOf(Objects.requireNonNull(protocols, "protocols"));
        cipherSuites = List.copyOf(Objects.requireNonNull(cipherSuites, "cipherSuites"));
        if (protocols.isEmpty()) {
            throw new IllegalArgumentException("protocols must not be empty");
        }
        SSLParameters supported = sslContext.getSupportedSSLParameters();
        supportedOnly("protocols", protocols, supported.getProtocols());
        supportedOnly("cipherSuites", cipherSuites, supported.getCipherSuites());
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout must be positive, was " + handshakeTimeout);
        }
        if (pem != null && pem.sslContext() != sslContext) {
            throw new IllegalArgumentException("sslContext must be the PemFiles' own (TlsOptions.builder(pem))");
        }
    }

    /** A builder for {@code sslContext} holding every default of the table above. */
    public static Builder builder(SSLContext sslContext) {
        return new Builder(sslContext);
    }

    /**
     * A builder serving the key material of PEM files, rotated without a restart as they change (the running server
     * reads them again every {@link PemFiles#reloadInterval()}).
     */
    public static Builder builder(PemFiles pem) {
        Builder builder = new Builder(pem.sslContext());
        builder.pem = pem;
        return builder;
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        Builder builder = new Builder(sslContext).clientAuth(clientAuth).protocols(protocols).cipherSuites(cipherSuites)
                .handshakeTimeout(handshakeTimeout);
        builder.pem = pem;
        return builder;
    }

    private static void supportedOnly(String name, List<String> wanted, String[] supported) {
        Set<String> known = new TreeSet<>(Arrays.asList(supported));
        for (String value : wanted) {
            if (!known.contains(value)) {
                throw new IllegalArgumentException(name + ": " + value + " is not supported by the SSLContext");
            }
        }
    }

    /** Builds {@link TlsOptions}; every setter returns {@code this}. */
    public static final class Builder {
        private final SSLContext sslContext;
        private ClientAuth clientAuth = ClientAuth.NONE;
        private List<String> protocols = DEFAULT_PROTOCOLS;
        private List<String> cipherSuites = List.of();
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private PemFiles pem;

        private Builder(SSLContext sslContext) {
            this.sslContext = sslContext;
        }

        public Builder clientAuth(ClientAuth value) { clientAuth = value; return this; }
        /** The protocol versions to enable, e.g. {@code "TLSv1.3"}. */
        public Builder protocols(List<String> value) { protocols = value; return this; }
        /** The protocol versions to enable, e.g. {@code "TLSv1.3"}. */
        public Builder protocols(String... value) { protocols = List.of(value); return this; }
        /** The cipher suites to enable; an empty list keeps the JDK's defaults. */
        public Builder cipherSuites(List<String> value) { cipherSuites = value; return this; }
        /** The cipher suites to enable; none keeps the JDK's defaults. */
        public Builder cipherSuites(String... value) { cipherSuites = List.of(value); return this; }
        public Builder handshakeTimeout(Duration value) { handshakeTimeout = value; return this; }

        /** Validates and returns the options; throws {@link IllegalArgumentException} naming a bad setting. */
        public TlsOptions build() {
            return new TlsOptions(sslContext, clientAuth, protocols, cipherSuites, handshakeTimeout, pem);
        }
    }
}
