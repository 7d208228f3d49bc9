package dev.fleche.jersey;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What Jersey's own containers send, Fleche sends (issue 12): the application's reason phrase, a three-digit status
 * outside 100–599 as set, query characters that clients send unencoded, and a request body limit that is a plain
 * property (none by default for a streamed body).
 */
@Timeout(60)
class ParityTest extends FlecheJerseyTest {
    static final long LIMIT = 1000;

    /** A status Jersey's {@code Response.status(int)} would refuse (above 599), given as a {@code StatusType}. */
    static final Response.StatusType SIX_HUNDRED = new Response.StatusType() {
        @Override
        public int getStatusCode() {
            return 600;
        }

        @Override
        public Response.Status.Family getFamily() {
            return Response.Status.Family.OTHER;
        }

        @Override
        public String getReasonPhrase() {
            return "Beyond";
        }
    };

    @Path("parity")
    public static class Resource {
        @GET
        @Path("phrase")
        public Response phrase(@QueryParam("text") String text) {
            return Response.status(428, text).entity("see the status line").build();
        }

        @GET
        @Path("six-hundred")
        public Response sixHundred() {
            return Response.status(SIX_HUNDRED).entity("as set").build();
        }

        @GET
        @Path("query")
        public String query(@QueryParam("q") String q, @Context UriInfo uri) {
            return q + " " + uri.getRequestUri().getRawQuery();
        }

        @POST
        @Path("count")
        @Consumes(MediaType.WILDCARD)
        public String count(InputStream body) throws IOException {
            long total = 0;
            byte[] buffer = new byte[65536];
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                total += n;
            }
            return Long.toString(total);
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class);
    }

    private RawHttp.Response get(String target) throws IOException {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET " + target + " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            return raw.read();
        }
    }

    @Test
    void theApplicationsReasonPhraseGoesOnTheStatusLine() throws IOException {
        assertEquals("HTTP/1.1 428 my-phrase", get("/parity/phrase?text=my-phrase").statusLine());
    }

    @Test
    void anInvalidReasonPhraseFallsBackToTheStandardOne() throws IOException {
        // %01 decodes to a control character, which a reason-phrase cannot hold
        assertEquals("HTTP/1.1 428 Precondition Required", get("/parity/phrase?text=bad%01phrase").statusLine());
    }

    @Test
    void aThreeDigitStatusOutside100To599IsSentAsSet() throws IOException {
        RawHttp.Response response = get("/parity/six-hundred");
        assertEquals("HTTP/1.1 600 Beyond", response.statusLine());
        assertEquals("as set", response.body());
    }

    @Test
    void queryCharactersClientsSendUnencodedReachTheResource() throws IOException {
        RawHttp.Response response = get("/parity/query?q={%22a%22:1}|b^c`d\\e");
        assertEquals(200, response.status());
        assertEquals("{\"a\":1}|b^c`d\\e q=%7B%22a%22:1%7D%7Cb%5Ec%60d%5Ce", response.body());
    }

    @Test
    void aStreamedBodyHasNoLimitByDefault() throws IOException {
        long size = 65L * 1024 * 1024 + 1; // past the old 64 MiB default
        try (Socket socket = new Socket("127.0.0.1", getBaseUri().getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /parity/count HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: " + size + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[1 << 20];
            for (long left = size; left > 0; left -= Math.min(left, block.length)) {
                out.write(block, 0, (int) Math.min(left, block.length));
            }
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 200 OK", response.substring(0, response.indexOf("\r\n")));
            assertEquals(Long.toString(size), response.substring(response.indexOf("\r\n\r\n") + 4));
        }
    }

    /** The same application with the body limit set as a plain property. */
    static final class Limited extends FlecheJerseyTest {
        @Override
        protected Application configure() {
            return new ResourceConfig(Resource.class).property(FlecheProperties.MAX_REQUEST_BODY_BYTES, LIMIT);
        }

        int port() {
            return getBaseUri().getPort();
        }
    }

    @Test
    void theBodyLimitIsAPlainProperty() throws Exception {
        Limited limited = new Limited();
        limited.setUp();
        try (RawHttp raw = new RawHttp(limited.port())) {
            raw.send("POST /parity/count HTTP/1.1\r\nHost: h\r\nContent-Length: " + (LIMIT + 1) + "\r\n\r\n");
            assertEquals(413, raw.read().status());
        } finally {
            limited.tearDown();
        }
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("POST /parity/count HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
            assertEquals("5", raw.read().body());
        }
    }
}
