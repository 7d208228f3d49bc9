package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.testing.TestCertificates;
import jakarta.ws.rs.core.SecurityContext;
import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.util.List;
import javax.security.auth.x500.X500Principal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExchangeSecurityContext#of} and the client-certificate request property of {@link ExchangeProperties}, on
 * plain, TLS and client-certificate exchanges.
 */
class ExchangeSecurityContextTest {
    private static TlsInfo tls(List<X509Certificate> chain) {
        return new TlsInfo("TLSv1.3", "TLS_AES_128_GCM_SHA256", "http/1.1", "localhost", chain);
    }

    @Test
    void plainExchange() {
        FakeExchange exchange = new FakeExchange();
        assertSame(ExchangeSecurityContext.PLAIN, ExchangeSecurityContext.of(exchange, false));
        // a trusted forwarded proto https
        assertSame(ExchangeSecurityContext.SECURE, ExchangeSecurityContext.of(exchange, true));
        ExchangeProperties properties = new ExchangeProperties(exchange, null);
        assertNull(properties.getProperty(FlecheProperties.CLIENT_CERTIFICATES));
        assertFalse(properties.getPropertyNames().contains(FlecheProperties.CLIENT_CERTIFICATES));
    }

    @Test
    void tlsWithoutAClientCertificateIsSecureWithoutAUser() {
        FakeExchange exchange = new FakeExchange();
        exchange.tls = tls(List.of());
        SecurityContext context = ExchangeSecurityContext.of(exchange, false);
        assertTrue(context.isSecure());
        assertNull(context.getUserPrincipal());
        assertNull(context.getAuthenticationScheme());
        assertNull(new ExchangeProperties(exchange, null).getProperty(FlecheProperties.CLIENT_CERTIFICATES));
    }

    @Test
    void aVerifiedClientCertificateIsTheUser() {
        TestCertificates certificates = TestCertificates.get();
        X509Certificate client = certificates.clientCertificate();
        FakeExchange exchange = new FakeExchange();
        exchange.tls = tls(List.of(client, certificates.caCertificate()));
        SecurityContext context = ExchangeSecurityContext.of(exchange, true);
        assertTrue(context.isSecure());
        assertEquals(new X500Principal("CN=Fleche Test Client"), context.getUserPrincipal());
        assertEquals(SecurityContext.CLIENT_CERT_AUTH, context.getAuthenticationScheme());
        assertFalse(context.isUserInRole("admin"));

        ExchangeProperties properties = new ExchangeProperties(exchange, null);
        assertArrayEquals(new X509Certificate[] {client, certificates.caCertificate()},
                (X509Certificate[]) properties.getProperty(FlecheProperties.CLIENT_CERTIFICATES));
        assertTrue(properties.getPropertyNames().contains(FlecheProperties.CLIENT_CERTIFICATES));
        properties.removeProperty(FlecheProperties.CLIENT_CERTIFICATES);
        assertNull(properties.getProperty(FlecheProperties.CLIENT_CERTIFICATES));
    }
}
