package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 5,000 connections open at once, each with one request answered, all driven by one selector in the test: then
 * closed, and the server's count of open connections must return to zero. (Client and server sockets live in this
 * JVM: 10,000 descriptors, under the 20,000 limit.)
 */
class ManyConnectionsTest {
    private static final int CONNECTIONS = 5_000;
    /** Connects started and not yet finished, kept under the listen backlog so that no SYN is dropped. */
    private static final int CONNECTING_AT_ONCE = 500;

    private HttpServer server;
    private final List<SocketChannel> channels = new ArrayList<>(CONNECTIONS);

    @AfterEach
    void stop() throws Exception {
        for (SocketChannel channel : channels) {
            channel.close();
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    /** One client connection: its number and the bytes of its response so far. */
    private static final class Client {
        final int number;
        final StringBuilder response = new StringBuilder();
        Client(int number) {
            this.number = number;
        }

        String expected() {
            String body = "hello " + number + "\n";
            return "HTTP/1.1 200 OK\r\nDate: <date>\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        }

        boolean complete() {
            int end = response.indexOf("\r\n\r\n");
            if (end < 0) {
                return false;
            }
            int at = response.indexOf("Content-Length: ");
            int length = Integer.parseInt(response.substring(at + 16, response.indexOf("\r\n", at)));
            return response.length() >= end + 4 + length;
        }
    }

    @Test
    void fiveThousandConnectionsOpenAtOnceEachAnswered() throws Exception {
        server = HttpServer.create(RawClient.loopback().backlog(4096).build(), exchange -> exchange.respond(200,
                new HttpFields(), ("hello " + exchange.path().substring(1) + "\n").getBytes(ISO_8859_1))).start();
        InetSocketAddress address = new InetSocketAddress(RawClient.HOST, server.port());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        int started = 0;
        int connecting = 0;
        int answered = 0;
        try (Selector selector = Selector.open()) {
            while (answered < CONNECTIONS) {
                for (; started < CONNECTIONS && connecting < CONNECTING_AT_ONCE; started++, connecting++) {
                    SocketChannel channel = SocketChannel.open();
                    channels.add(channel);
                    channel.configureBlocking(false);
                    channel.connect(address);
                    channel.register(selector, SelectionKey.OP_CONNECT, new Client(started));
                }
                if (System.nanoTime() - deadline > 0) {
                    fail("only " + answered + " of " + CONNECTIONS + " answered in 20 s (" + started + " started)");
                }
                selector.select(1_000);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel channel = (SocketChannel) key.channel();
                    Client client = (Client) key.attachment();
                    if (key.isConnectable() && channel.finishConnect()) {
                        connecting--;
                        send(channel, "GET /" + client.number + " HTTP/1.1\r\nHost: test\r\n\r\n");
                        key.interestOps(SelectionKey.OP_READ);
                    } else if (key.isReadable()) {
                        buffer.clear();
                        if (channel.read(buffer) < 0) {
                            fail("connection " + client.number + " closed by the server: " + client.response);
                        }
                        client.response.append(new String(buffer.array(), 0, buffer.position(), ISO_8859_1));
                        if (client.complete()) {
                            assertEquals(client.expected(), RawClient.normalize(client.response.toString()));
                            key.interestOps(0); // answered; stays open
                            answered++;
                        }
                    }
                }
                selector.selectedKeys().clear();
            }
        }

        // Every connection is still open on the server's side: no client has seen an end of stream (or more bytes).
        for (SocketChannel channel : channels) {
            buffer.clear();
            assertEquals(0, channel.read(buffer), "the server closed (or wrote more on) an answered connection");
        }
        Await.until("the server counts every connection open",
                () -> server.metrics().openConnections() == CONNECTIONS);
        assertEquals(CONNECTIONS, server.metrics().acceptedConnections());
        assertEquals(CONNECTIONS, server.metrics().requests());

        for (SocketChannel channel : channels) {
            channel.close();
        }
        Await.until("the server closes every connection", Duration.ofSeconds(10),
                () -> server.metrics().openConnections() == 0);
        assertEquals(CONNECTIONS, server.metrics().closedConnections());
    }

    private static void send(SocketChannel channel, String request) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(request.getBytes(ISO_8859_1));
        while (bytes.hasRemaining()) {
            channel.write(bytes); // a fresh socket's send buffer takes these few bytes at once
        }
    }
}
