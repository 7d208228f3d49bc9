package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import dev.fleche.conformance.h2.client.H2Connection.Event;
import dev.fleche.conformance.h2.client.H2Connection.Received;
import dev.fleche.conformance.h2.client.Setting;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.Octets.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 9113 section 3: starting HTTP/2. */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §3 Starting HTTP/2")
class StartingHttp2Test {

    @Nested
    @DisplayName("§3.2 Starting HTTP/2 for https URIs")
    class S3_2_Https {
        @Test
        @DisplayName("§3.2 TLS: ALPN offering h2 settles on h2, and HTTP/2 follows")
        void alpnSettlesOnH2() {
            try (H2Connection connection = Transport.TLS.open()) {
                assertEquals("h2", connection.alpn());
                connection.handshake();
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }
    }

    @Nested
    @DisplayName("§3.4 HTTP/2 Connection Preface")
    class S3_4_ConnectionPreface {
        @OverBothTransports
        @H2spec({"generic/1/1", "http2/3.5/1"})
        @DisplayName("§3.4 the client preface and SETTINGS are answered with a SETTINGS frame first, then an ACK")
        void prefaceAnsweredWithSettingsFirst(Transport transport) {
            try (H2Connection connection = transport.open()) {
                connection.write(H2Connection.PREFACE);
                connection.settings(Setting.INITIAL_WINDOW_SIZE, Setting.DEFAULT_WINDOW);
                Event first = connection.next();
                assertTrue(first instanceof Received received && received.frame().type() == Frame.SETTINGS
                        && !received.frame().has(Frame.ACK), () -> connection.failure(
                        "the server's preface is a SETTINGS frame, its first frame; got " + first).getMessage());
                connection.settingsAck();
                Expect.settingsAck(connection);
            }
        }

        @Test
        @H2spec("http2/3.5/2")
        @DisplayName("§3.4 TLS: an invalid preface is a connection error PROTOCOL_ERROR")
        void invalidPrefaceOverTls() {
            try (H2Connection connection = Transport.TLS.open()) {
                connection.write(ascii("INVALID CONNECTION PREFACE\r\n\r\n"));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        /**
         * The documented exception (README.md): the clear-text port serves HTTP/1.1 and HTTP/2 by prior knowledge
         * on the same port, and tells them apart by the first line. "INVALID CONNECTION PREFACE" is not the
         * preface's first line, so it is an HTTP/1.1 request line, a malformed one: answered {@code 400} and
         * closed as RFC 9112 asks, not with an HTTP/2 GOAWAY. h2spec counts this case as failed over h2c.
         */
        @Test
        @H2spec("http2/3.5/2")
        @DisplayName("§3.4 h2c (the exception): an invalid preface is a malformed HTTP/1.1 request, answered 400")
        void invalidPrefaceOverH2cIsAnHttp11BadRequest() throws IOException {
            try (Socket socket = new Socket()) {
                socket.connect(Servers.address(Transport.H2C), 10_000);
                socket.setSoTimeout((int) H2Connection.WAIT.toMillis());
                socket.getOutputStream().write(ascii("INVALID CONNECTION PREFACE\r\n\r\n"));
                String answer = readToEnd(socket.getInputStream());
                assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
                assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close\r\n"), answer);
            }
        }

        @OverBothTransports
        @DisplayName("§3.4 the preface's first line followed by other octets is a connection error PROTOCOL_ERROR")
        void prefaceLineThenWrongOctets(Transport transport) {
            try (H2Connection connection = transport.open()) {
                connection.write(ascii("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n"));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @DisplayName("§3.4 a preface not followed by SETTINGS is a connection error PROTOCOL_ERROR")
        void prefaceNotFollowedBySettings(Transport transport) {
            try (H2Connection connection = transport.open()) {
                connection.write(H2Connection.PREFACE);
                connection.ping(false, Octets.PING_DATA);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        private String readToEnd(InputStream in) throws IOException {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; ) {
                all.write(buffer, 0, n);
            }
            assertFalse(all.size() == 0, "no answer");
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
