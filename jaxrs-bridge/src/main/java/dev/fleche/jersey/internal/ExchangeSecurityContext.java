package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.TlsInfo;
import jakarta.ws.rs.core.SecurityContext;

import java.security.Principal;

/**
 * The {@link SecurityContext} the container gives Jersey: {@code isSecure} from the connection (TLS) or the
 * request's scheme (a trusted {@code Forwarded} proto); no roles (authorization belongs to filters, which may
 * replace this context). The user is the subject of a client certificate the TLS handshake verified, with the
 * scheme {@link SecurityContext#CLIENT_CERT_AUTH}; without one there is no user. Immutable: two shared instances
 * for requests without a certificate.
 */
public final class ExchangeSecurityContext implements SecurityContext {
    static final ExchangeSecurityContext PLAIN = new ExchangeSecurityContext(false, null);
    static final ExchangeSecurityContext SECURE = new ExchangeSecurityContext(true, null);

    private final boolean secure;
    private final Principal clientCertificateSubject;

    private ExchangeSecurityContext(boolean secure, Principal clientCertificateSubject) {
        this.secure = secure;
        this.clientCertificateSubject = clientCertificateSubject;
    }

    /**
     * The security context of {@code exchange}'s request.
     *
     * @param secureScheme whether the request's base URI is {@code https} (the connection's TLS, or a trusted
     *                     forwarded proto)
     */
    public static ExchangeSecurityContext of(HttpExchange exchange, boolean secureScheme) {
        TlsInfo tls = exchange.tls();
        if (tls != null && !tls.peerCertificates().isEmpty()) {
            return new ExchangeSecurityContext(true, tls.peerCertificates().get(0).getSubjectX500Principal());
        }
        return secureScheme || tls != null ? SECURE : PLAIN;
    }

    /** The client certificate's subject ({@code javax.security.auth.x500.X500Principal}), or null. */
    @Override
    public Principal getUserPrincipal() {
        return clientCertificateSubject;
    }

    @Override
    public boolean isUserInRole(String role) {
        return false;
    }

    @Override
    public boolean isSecure() {
        return secure;
    }

    /** {@link SecurityContext#CLIENT_CERT_AUTH} with a client certificate, else null. */
    @Override
    public String getAuthenticationScheme() {
        return clientCertificateSubject == null ? null : CLIENT_CERT_AUTH;
    }
}
