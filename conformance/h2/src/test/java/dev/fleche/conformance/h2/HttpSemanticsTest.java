package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.FieldBlock;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.FrameDefinitionsTest.bodyLine;
import static dev.fleche.conformance.h2.FrameDefinitionsTest.post;
import static dev.fleche.conformance.h2.Octets.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 9113 section 8: expressing HTTP semantics in HTTP/2. A malformed request is a stream error PROTOCOL_ERROR
 * (8.1.1); the server may answer it first (a 400), which the checks let pass.
 */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §8 Expressing HTTP Semantics in HTTP/2")
class HttpSemanticsTest {
    private static final int END = Frame.END_HEADERS | Frame.END_STREAM;

    /** Sends {@code block} as a whole request on stream 1 and expects it refused as malformed. */
    static void malformed(H2Connection connection, FieldBlock block) {
        connection.headers(1, END, block);
        Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
    }

    @Nested
    @DisplayName("§8.1 HTTP Message Framing")
    class S8_1_MessageFraming {
        @OverBothTransports
        @H2spec("generic/4/1")
        @DisplayName("§8.1 a GET is answered")
        void get(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/hello?x=1");
                Expect.Response response = Expect.response(connection, 1);
                assertEquals(200, response.status());
                assertEquals("GET /hello?x=1", response.lines().get(0));
            }
        }

        @OverBothTransports
        @H2spec("generic/4/2")
        @DisplayName("§8.1 a HEAD is answered, without content")
        void head(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, END, connection.request("HEAD", "/"));
                Expect.Response response = Expect.response(connection, 1);
                assertEquals(200, response.status());
                assertEquals(0, response.body().length);
            }
        }

        @OverBothTransports
        @H2spec("generic/4/3")
        @DisplayName("§8.1 a POST with content is answered, the content read whole")
        void postWithContent(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, true, ascii("test"));
                Expect.Response response = Expect.response(connection, 1);
                assertEquals("POST /", response.lines().get(0));
                assertEquals("body: 4 octets", bodyLine(response));
            }
        }

        @OverBothTransports
        @H2spec("generic/4/4")
        @DisplayName("§8.1 a POST with a trailer section is answered, the trailer fields received")
        void postWithTrailers(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/").field("trailer", "x-test"));
                connection.data(1, false, ascii("test"));
                connection.headers(1, END, FieldBlock.of("x-test", "ok"));
                List<String> lines = Expect.response(connection, 1).lines();
                assertTrue(lines.contains("body: 4 octets"), lines::toString);
                assertTrue(lines.contains("trailer x-test: ok"), lines::toString);
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1/1")
        @DisplayName("§8.1 a second HEADERS without END_STREAM (trailers that do not end the stream) is malformed")
        void secondHeadersWithoutEndStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, false, ascii("test"));
                connection.headers(1, Frame.END_HEADERS, FieldBlock.of("x-test", "ok"));
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§8.1.1 Malformed Messages")
    class S8_1_1_MalformedMessages {
        @OverBothTransports
        @H2spec("http2/8.1.2.6/1")
        @DisplayName("§8.1.1 content-length unlike the DATA frame's length is malformed")
        void contentLengthUnlikeTheData(Transport transport) {
            contentLengthThenData(transport, "1", "test");
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.6/2")
        @DisplayName("§8.1.1 content-length unlike the sum of the DATA frames' lengths is malformed")
        void contentLengthUnlikeTheSumOfData(Transport transport) {
            contentLengthThenData(transport, "1", "test", "test");
        }

        @OverBothTransports
        @DisplayName("§8.1.1 content-length above the content the stream ends with is malformed")
        void contentLengthAboveTheContent(Transport transport) {
            contentLengthThenData(transport, "10", "test");
        }

        private void contentLengthThenData(Transport transport, String contentLength, String... data) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS,
                        connection.request("POST", "/").field("content-length", contentLength));
                for (int i = 0; i < data.length; i++) {
                    connection.data(1, i == data.length - 1, ascii(data[i]));
                }
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§8.2 HTTP Fields, §8.2.1 Field Validity")
    class S8_2_HttpFields {
        @OverBothTransports
        @H2spec("http2/8.1.2/1")
        @DisplayName("§8.2 a field name with uppercase letters is malformed")
        void uppercaseName(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field("X-TEST", "ok"));
            }
        }

        @OverBothTransports
        @DisplayName("§8.2.1 a field name with a space or a colon is malformed")
        void nameWithSpaceOrColon(Transport transport) {
            for (String name : List.of("x test", "x:test")) {
                try (H2Connection connection = transport.connect()) {
                    malformed(connection, connection.request("GET", "/").field(name, "ok"));
                }
            }
        }

        @OverBothTransports
        @DisplayName("§8.2.1 a field value with NUL, CR or LF is malformed")
        void valueWithNulCrLf(Transport transport) {
            for (String value : List.of("a\0b", "a\rb", "a\nb")) {
                try (H2Connection connection = transport.connect()) {
                    malformed(connection, connection.request("GET", "/").field("x-test", value));
                }
            }
        }

        @OverBothTransports
        @DisplayName("§8.2.1 a field value that starts or ends with a space or a tab is malformed")
        void valueWithOuterWhitespace(Transport transport) {
            for (String value : List.of(" ok", "ok ", "\tok", "ok\t")) {
                try (H2Connection connection = transport.connect()) {
                    malformed(connection, connection.request("GET", "/").field("x-test", value));
                }
            }
        }
    }

    @Nested
    @DisplayName("§8.2.2 Connection-Specific Header Fields")
    class S8_2_2_ConnectionSpecificFields {
        @OverBothTransports
        @H2spec("http2/8.1.2.2/1")
        @DisplayName("§8.2.2 a connection field is malformed")
        void connection(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field("connection", "keep-alive"));
            }
        }

        @OverBothTransports
        @DisplayName("§8.2.2 keep-alive, proxy-connection, transfer-encoding and upgrade fields are malformed")
        void otherConnectionSpecificFields(Transport transport) {
            List<String> names = List.of("keep-alive", "proxy-connection", "transfer-encoding", "upgrade");
            List<String> values = List.of("timeout=5", "keep-alive", "chunked", "websocket");
            for (int i = 0; i < names.size(); i++) {
                try (H2Connection connection = transport.connect()) {
                    malformed(connection, connection.request("GET", "/").field(names.get(i), values.get(i)));
                }
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.2/2")
        @DisplayName("§8.2.2 a te field with a value other than \"trailers\" is malformed")
        void teOtherThanTrailers(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field("te", "trailers, deflate"));
            }
        }

        @OverBothTransports
        @DisplayName("§8.2.2 a te field of \"trailers\" is accepted")
        void teTrailers(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, END, connection.request("GET", "/").field("te", "trailers"));
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }
    }

    @Nested
    @DisplayName("§8.3 HTTP Control Data")
    class S8_3_ControlData {
        @OverBothTransports
        @H2spec("http2/8.1.2.1/1")
        @DisplayName("§8.3 an undefined pseudo-header field is malformed")
        void undefinedPseudoHeader(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field(":test", "ok"));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.1/2")
        @DisplayName("§8.3 a response pseudo-header field in a request is malformed")
        void responsePseudoHeaderInARequest(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field(":status", "200"));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.1/3")
        @DisplayName("§8.3 a pseudo-header field in a trailer section is malformed")
        void pseudoHeaderInTrailers(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, false, ascii("test"));
                connection.headers(1, END, FieldBlock.of(":method", "POST"));
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.1/4")
        @DisplayName("§8.3 a pseudo-header field after a regular field is malformed")
        void pseudoHeaderAfterARegularField(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = FieldBlock.of("x-test", "ok", ":method", "GET", ":scheme", connection.scheme(),
                        ":path", "/", ":authority", connection.authority());
                malformed(connection, block);
            }
        }
    }

    @Nested
    @DisplayName("§8.3.1 Request Pseudo-Header Fields")
    class S8_3_1_RequestPseudoHeaders {
        @OverBothTransports
        @H2spec("http2/8.1.2.3/1")
        @DisplayName("§8.3.1 an empty :path is malformed")
        void emptyPath(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, FieldBlock.of(":method", "GET", ":scheme", connection.scheme(),
                        ":path", "", ":authority", connection.authority()));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/2")
        @DisplayName("§8.3.1 a request without :method is malformed")
        void withoutMethod(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, FieldBlock.of(":scheme", connection.scheme(), ":path", "/",
                        ":authority", connection.authority()));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/3")
        @DisplayName("§8.3.1 a request without :scheme is malformed")
        void withoutScheme(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, FieldBlock.of(":method", "GET", ":path", "/",
                        ":authority", connection.authority()));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/4")
        @DisplayName("§8.3.1 a request without :path is malformed")
        void withoutPath(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, FieldBlock.of(":method", "GET", ":scheme", connection.scheme(),
                        ":authority", connection.authority()));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/5")
        @DisplayName("§8.3.1 :method twice is malformed")
        void methodTwice(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field(":method", "GET"));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/6")
        @DisplayName("§8.3.1 :scheme twice is malformed")
        void schemeTwice(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field(":scheme", connection.scheme()));
            }
        }

        @OverBothTransports
        @H2spec("http2/8.1.2.3/7")
        @DisplayName("§8.3.1 :path twice is malformed")
        void pathTwice(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                malformed(connection, connection.request("GET", "/").field(":path", "/"));
            }
        }
    }

    @Nested
    @DisplayName("§8.4 Server Push")
    class S8_4_ServerPush {
        @OverBothTransports
        @H2spec("http2/8.2/1")
        @DisplayName("§8.4 a PUSH_PROMISE from the client is a connection error PROTOCOL_ERROR")
        void pushPromiseFromTheClient(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.get(1, "/");
                connection.pushPromise(1, 2, connection.request("GET", "/pushed").bytes());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }
}
