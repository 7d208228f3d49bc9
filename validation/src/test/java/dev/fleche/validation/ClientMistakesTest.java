package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ServerMetrics;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Log by blame: a flood of client mistakes — bad framing, a bad chunk while Jersey reads the entity, malformed
 * JSON, JSON of the wrong shape, a body over the limit, a client that leaves in the middle of its body, a media
 * type not accepted — is answered and counted, and leaves the log (at {@code INFO} and above, every logger of the
 * process) all but silent: a handful of lines at most, none per request.
 */
@Timeout(180)
class ClientMistakesTest {
    private static final int REQUESTS = 10_000;
    private static final int MAX_LINES = 5;

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                records.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private FlecheHttpServer server;

    @BeforeEach
    void start() {
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                        .register(FlecheValidationFeature.class));
        Logger.getLogger("").addHandler(handler);
    }

    @AfterEach
    void stop() throws InterruptedException {
        Logger.getLogger("").removeHandler(handler);
        server.stop(Duration.ofSeconds(1));
    }

    /** One mistake: what is sent (in one or two writes), and the status expected back (0: the client leaves). */
    private record Mistake(String name, String first, String second, int status) {
    }

    private static final String JSON_HEAD = "POST /orders HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n";

    private static final List<Mistake> MISTAKES = List.of(
            new Mistake("bad request line", "GET /orders HTTP/1.1 extra\r\nHost: h\r\n\r\n", null, 400),
            new Mistake("bad chunk while read", JSON_HEAD + "Transfer-Encoding: chunked\r\n\r\n2\r\n{\"\r\n",
                    "zz\r\n0\r\n\r\n", 400),
            new Mistake("malformed JSON", JSON_HEAD + "Content-Length: 11\r\nConnection: close\r\n\r\n{\"customer\"",
                    null, 400),
            new Mistake("wrong shape", JSON_HEAD + "Content-Length: 13\r\nConnection: close\r\n\r\n{\"items\": {}}",
                    null, 400),
            new Mistake("over the limit", JSON_HEAD + "Content-Length: 20000000\r\n\r\n{", null, 413),
            new Mistake("client leaves mid-body", JSON_HEAD + "Content-Length: 1000\r\n\r\n{\"customer\": {", null, 0),
            new Mistake("media type not accepted", "POST /orders HTTP/1.1\r\nHost: h\r\nContent-Type: text/csv\r\n"
                    + "Content-Length: 3\r\nConnection: close\r\n\r\na,b", null, 415));

    @Test
    void tenThousandMistakesLeaveAHandfulOfLogLinesAtMost() throws Exception {
        ServerMetrics before = server.transport().metrics();
        int[] seen = new int[600];
        for (int i = 0; i < REQUESTS; i++) {
            Mistake mistake = MISTAKES.get(i % MISTAKES.size());
            int status = send(mistake);
            if (mistake.status() != 0) {
                assertEquals(mistake.status(), status, mistake.name());
            }
            seen[status]++;
        }
        ServerMetrics after = server.transport().metrics();
        assertTrue(records.size() <= MAX_LINES, records.size() + " log lines at INFO or above, the first: "
                + (records.isEmpty() ? "" : records.get(0).getLevel() + " " + records.get(0).getLoggerName() + ": "
                + records.get(0).getMessage()));
        long refusedByTransport = after.protocolErrors() - before.protocolErrors();
        assertTrue(refusedByTransport >= seen[400] / 2, "counted: " + refusedByTransport); // line, chunk, limit
        assertTrue(after.refusals("BODY_TOO_LARGE") - before.refusals("BODY_TOO_LARGE") >= seen[413]);
    }

    /** Sends one mistake on its own connection; the status of the answer, or 0 when none came. */
    private int send(Mistake mistake) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(mistake.first().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (mistake.status() == 0) {
                return 0; // the client leaves in the middle of its body
            }
            if (mistake.second() != null) {
                try {
                    out.write(mistake.second().getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                } catch (IOException refusedBeforeTheRest) {
                    // the server answered and closed before the second part went out
                }
            }
            InputStream in = socket.getInputStream();
            byte[] statusLine = in.readNBytes(12);
            return statusLine.length < 12 ? 0 : Integer.parseInt(new String(statusLine, 9, 3, StandardCharsets.US_ASCII));
        }
    }
}
