package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class TlsOptionsTest {
    private static SSLContext context() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        return context;
    }

    @Test
    void defaults() throws Exception {
        SSLContext context = context();
        TlsOptions options = TlsOptions.builder(context).build();
        assertSame(context, options.sslContext());
        assertEquals(TlsOptions.ClientAuth.NONE, options.clientAuth());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), options.protocols());
        assertEquals(List.of(), options.cipherSuites());
        assertEquals(Duration.ofSeconds(10), options.handshakeTimeout());
    }

    @Test
    void toBuilderKeepsEverySetting() throws Exception {
        TlsOptions options = TlsOptions.builder(context()).clientAuth(TlsOptions.ClientAuth.WANT)
                .protocols("TLSv1.3").cipherSuites("TLS_AES_128_GCM_SHA256")
                .handshakeTimeout(Duration.ofSeconds(3)).build();
        assertEquals(options, options.toBuilder().build());
    }

    @Test
    void refusesWhatTheContextDoesNotSupport() throws Exception {
        IllegalArgumentException protocol = assertThrows(IllegalArgumentException.class,
                () -> TlsOptions.builder(context()).protocols("TLSv1.7").build());
        assertTrue(protocol.getMessage().contains("TLSv1.7"), protocol.getMessage());
        IllegalArgumentException cipher = assertThrows(IllegalArgumentException.class,
                () -> TlsOptions.builder(context()).cipherSuites("TLS_NONSENSE").build());
        assertTrue(cipher.getMessage().contains("TLS_NONSENSE"), cipher.getMessage());
    }

    @Test
    void refusesMissingOrEmptySettings() throws Exception {
        assertThrows(NullPointerException.class, () -> TlsOptions.builder((SSLContext) null).build());
        assertThrows(IllegalArgumentException.class, () -> TlsOptions.builder(context()).protocols(List.of()).build());
        assertThrows(IllegalArgumentException.class,
                () -> TlsOptions.builder(context()).handshakeTimeout(Duration.ZERO).build());
        assertThrows(NullPointerException.class, () -> TlsOptions.builder(context()).clientAuth(null).build());
    }

    @Test
    void serverOptionsArePlainUnlessGivenTls() throws Exception {
        assertNull(ServerOptions.builder().build().tls());
        TlsOptions tls = TlsOptions.builder(context()).build();
        ServerOptions options = ServerOptions.builder().tls(tls).build();
        assertSame(tls, options.tls());
        assertSame(tls, options.toBuilder().build().tls());
    }
}
