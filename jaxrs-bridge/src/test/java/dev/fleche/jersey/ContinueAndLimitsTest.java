package dev.fleche.jersey;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code 100 Continue} only when the resource reads the entity, and {@code 413} above the body limit. */
class ContinueAndLimitsTest {
    private FlecheHttpServer server;

    @Path("in")
    public static class Inbox {
        @POST
        @Path("read")
        public String read(String body) {
            return "read " + body.length();
        }

        @POST
        @Path("ignore")
        public String ignore() {
            return "ignored";
        }
    }

    @BeforeEach
    void start() {
        ServerOptions options = ServerOptions.builder().maxBodyBytes(1024).build();
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Inbox.class), options);
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void continueIsSentWhenTheResourceReadsTheEntity() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /in/read HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            RawHttp.Response interim = raw.readHead();
            assertEquals(100, interim.status());
            raw.send("hello");
            RawHttp.Response response = raw.read();
            assertEquals(200, response.status());
            assertEquals("read 5", response.body());
        }
    }

    @Test
    void noContinueWhenTheResourceIgnoresTheEntity() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /in/ignore HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
                    + "Expect: 100-continue\r\n\r\n");
            RawHttp.Response response = raw.read();
            assertEquals(200, response.status(), "the final answer comes without 100 Continue");
            assertEquals("ignored", response.body());
        }
    }

    @Test
    void bodyOverTheLimitIs413() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /in/read HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\n");
            RawHttp.Response response = raw.read();
            assertEquals(413, response.status());
        }
    }

    @Test
    void chunkedBodyOverTheLimitIs413() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /in/read HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n800\r\n" + "a".repeat(0x800) + "\r\n0\r\n\r\n");
            RawHttp.Response response = raw.read();
            assertEquals(413, response.status());
            assertTrue(raw.closedByServer());
        }
    }

    @Test
    void serverOptionsCanComeFromTheApplication() throws Exception {
        ResourceConfig config = new ResourceConfig(Inbox.class).property(FlecheProperties.SERVER_OPTIONS,
                ServerOptions.builder().maxBodyBytes(10).build());
        FlecheHttpServer other = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        try (RawHttp raw = new RawHttp(other.port())) {
            raw.send("POST /in/read HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\n");
            assertEquals(413, raw.read().status());
        } finally {
            other.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void bodyUnderTheLimitIsServed() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /in/read HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 1024\r\n\r\n"
                    + "b".repeat(1024));
            assertEquals("read 1024", raw.read().body());
        }
    }
}
