package dev.fleche.transport.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HTTP/2 behind a PROXY header: the preface comes after the header (in the same write, or later), the connection becomes
 * HTTP/2 as it would without one, and every stream sees the client's address the header carried.
 */
@Timeout(30)
class ProxyHttp2Test {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void h2cByPriorKnowledgeAfterAV2Header() throws Exception {
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).reactors(1)
                .proxyProtocol(ProxyProtocol.builder().trust("127.0.0.1").build()).build(), exchange ->
                exchange.respond(200, new HttpFields(), (exchange.version() + " " + exchange.remoteAddress() + " "
                        + exchange.proxy().version()).getBytes(StandardCharsets.US_ASCII))).start();
        // PROXY TCP over IPv4: 198.51.100.9:61000 to 192.0.2.1:80
        byte[] header = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "000c"
                + "c6336409" + "c0000201" + "ee48" + "0050");
        try (H2Client client = new H2Client(server.port())) {
            client.send(header);
            client.handshake();
            client.get(1, "/");
            client.get(3, "/");
            assertEquals(":status: 200|HTTP/2 /198.51.100.9:61000 2", client.response(1));
            assertEquals(":status: 200|HTTP/2 /198.51.100.9:61000 2", client.response(3));
        }
        // the header, the preface and an empty SETTINGS in one write: the server's SETTINGS answer
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            ByteBuffer all = ByteBuffer.allocate(header.length + H2Client.PREFACE.length + 9);
            all.put(header).put(H2Client.PREFACE).put(new byte[] {0, 0, 0, H2Client.SETTINGS, 0, 0, 0, 0, 0});
            socket.getOutputStream().write(all.array());
            byte[] frameHead = socket.getInputStream().readNBytes(9);
            assertEquals(H2Client.SETTINGS, frameHead[3]);
            assertEquals(0, frameHead[4]); // not an ACK: the server's own SETTINGS, first
        }
        assertEquals(2, server.metrics().http2Connections());
    }
}
