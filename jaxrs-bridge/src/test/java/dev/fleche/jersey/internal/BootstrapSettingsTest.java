package dev.fleche.jersey.internal;

import dev.fleche.transport.TlsOptions;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.SeBootstrap.Configuration.SSLClientAuthentication;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import javax.net.ssl.SSLContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@link BootstrapSettings} reads the protocol, the SSL context and client authentication of a configuration. */
class BootstrapSettingsTest {

    @ParameterizedTest
    @CsvSource({"NONE, NONE", "OPTIONAL, WANT", "MANDATORY, NEED"})
    void clientAuthenticationMapsToTheTransports(SSLClientAuthentication given, TlsOptions.ClientAuth expected)
            throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        BootstrapSettings settings = BootstrapSettings.from(SeBootstrap.Configuration.builder().protocol("HTTPS")
                .sslContext(context).sslClientAuthentication(given).build());
        assertTrue(settings.address().https());
        assertSame(context, settings.tls().sslContext());
        assertEquals(expected, settings.tls().clientAuth());
    }

    @Test
    void httpsWithoutAContextUsesTheJvmDefaultAndPort8443() throws Exception {
        Map<String, Object> properties = Map.of(SeBootstrap.Configuration.PROTOCOL, "HTTPS");
        BootstrapSettings settings = BootstrapSettings.from(properties::get);
        assertSame(SSLContext.getDefault(), settings.tls().sslContext());
        assertEquals(TlsOptions.ClientAuth.NONE, settings.tls().clientAuth());
        assertEquals(8443, settings.address().port());
        assertEquals("https://localhost:8443/", settings.address().toString());

        Map<String, Object> privileged = Map.of(SeBootstrap.Configuration.PROTOCOL, "HTTPS",
                ServerProperties.WEBSERVER_ALLOW_PRIVILEGED_PORTS, true);
        assertEquals(443, BootstrapSettings.from(privileged::get).address().port());
    }

    @Test
    void httpHasNoTls() {
        BootstrapSettings settings = BootstrapSettings.from(SeBootstrap.Configuration.builder().build());
        assertNull(settings.tls());
        assertEquals(8080, settings.address().port());
    }

    @Test
    void aContextOfAnotherTypeIsRefused() {
        Map<String, Object> properties = Map.of(SeBootstrap.Configuration.PROTOCOL, "HTTPS",
                SeBootstrap.Configuration.SSL_CONTEXT, "not a context");
        ProcessingException error = assertThrows(ProcessingException.class,
                () -> BootstrapSettings.from(properties::get));
        assertTrue(error.getMessage().contains("must be a javax.net.ssl.SSLContext"), error.getMessage());
    }
}
