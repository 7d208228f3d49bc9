package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.SecurityContext;

import java.security.Principal;

/**
 * The {@link SecurityContext} the container gives Jersey: no user and no roles (authentication belongs to
 * filters, which may replace it), {@code isSecure} from the connection or a trusted {@code Forwarded} proto.
 * Immutable: two shared instances.
 */
final class ExchangeSecurityContext implements SecurityContext {
    static final ExchangeSecurityContext PLAIN = new ExchangeSecurityContext(false);
    static final ExchangeSecurityContext SECURE = new ExchangeSecurityContext(true);

    private final boolean secure;

    private ExchangeSecurityContext(boolean secure) {
        this.secure = secure;
    }

    @Override
    public Principal getUserPrincipal() {
        return null;
    }

    @Override
    public boolean isUserInRole(String role) {
        return false;
    }

    @Override
    public boolean isSecure() {
        return secure;
    }

    @Override
    public String getAuthenticationScheme() {
        return null;
    }
}
