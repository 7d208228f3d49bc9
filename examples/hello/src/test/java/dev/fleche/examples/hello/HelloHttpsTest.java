package dev.fleche.examples.hello;

import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example's {@code --https} mode: a self-signed certificate made at start, called by a client that trusts it. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HelloHttpsTest {

    @Test
    void servesHelloOverHttpsWithAGeneratedCertificate() throws Exception {
        char[] password = "test-only".toCharArray();
        KeyStore keys = HelloServer.selfSigned(password);
        assertTrue(HelloServer.fingerprint(keys).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}"));
        FlecheHttpServer server = HelloServer.startHttps(0, HelloServer.sslContext(keys, password));
        try {
            assertEquals("https", server.baseUri().getScheme());
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("hello", keys.getCertificate("hello"));
            TrustManagerFactory trustManagers =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            SSLContext client = SSLContext.getInstance("TLS");
            client.init(null, trustManagers.getTrustManagers(), null);
            HttpResponse<String> response = HttpClient.newBuilder().sslContext(client).build().send(
                    HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals("Hello, World!", response.body());
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}
