package dev.fleche.transport.internal.channel;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A PROXY header and the TLS ClientHello in one TCP write (what a load balancer forwarding a client's first flight
 * does): the bytes past the header are the channel's first records, checked and unwrapped as if read from the socket,
 * and the handshake that follows reads the client's next flight normally. With TLS 1.3 and 1.2.
 */
@Timeout(60)
class ProxyTlsEarlyBytesTest {
    private static final byte[] V2 = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "000c"
            + "cb007105" + "0a000002" + "9c40" + "20fb");
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void theClientHelloInTheHeadersSegment() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).reactors(1)
                .proxyProtocol(ProxyProtocol.builder().trust("127.0.0.1").build())
                .tls(TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256)).build()).build(),
                exchange -> exchange.respond(200, new HttpFields(), ("remote=" + exchange.remoteAddress())
                        .getBytes(US_ASCII))).start();
        for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
            try (EngineClient client = new EngineClient(certificates.clientContext(), server.port(), protocol)) {
                client.preamble(V2);
                client.handshake(null);
                client.write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(US_ASCII));
                String body = "remote=/203.0.113.5:40000";
                String expected = "HTTP/1.1 200 OK\r\nDate: <date>\r\nContent-Length: 25\r\n\r\n" + body;
                int length = expected.length() - "<date>".length() + "Sat, 01 Jan 2000 00:00:00 GMT".length();
                String response = new String(client.read(length), US_ASCII);
                assertEquals(expected, response.replaceFirst("Date: [^\r]*", "Date: <date>"));
            }
        }
        assertEquals(0, server.metrics().refusalsByRule().size());
        assertEquals(2, server.metrics().requests());
    }
}
