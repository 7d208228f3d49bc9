package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.FieldBlock;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.Octets.PING_DATA;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** RFC 9113 section 4: HTTP frames (format, size, field section compression). */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §4 HTTP Frames")
class HttpFramesTest {
    private static final int END = Frame.END_HEADERS | Frame.END_STREAM;

    @Nested
    @DisplayName("§4.1 Frame Format")
    class S4_1_FrameFormat {
        @OverBothTransports
        @H2spec("http2/4.1/1")
        @DisplayName("§4.1 a frame of an unknown type is ignored")
        void unknownTypeIsIgnored(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(0xEE, 0x00, 0, Octets.filler(8));
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @H2spec("http2/4.1/2")
        @DisplayName("§4.1 flags a frame type does not define are ignored, and the answer leaves them unset")
        void undefinedFlagsAreIgnored(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.PING, 0xFE, 0, PING_DATA); // every flag but ACK
                Frame ack = Expect.await(connection, "PING ACK", frame -> frame.type() == Frame.PING,
                        Expect::background);
                assertEquals(Frame.ACK, ack.flags(), "only ACK set on the answer");
                assertEquals(0, ack.stream());
                assertEquals(new String(PING_DATA), new String(ack.payload()));
            }
        }

        @OverBothTransports
        @H2spec("http2/4.1/3")
        @DisplayName("§4.1 the reserved bit of the stream identifier is ignored (on stream 0)")
        void reservedBitIsIgnored(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.rawFrame(Frame.PING, 0, 0x8000_0000, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @DisplayName("§4.1 the reserved bit of the stream identifier is ignored (on a request's stream)")
        void reservedBitOnARequestIsIgnored(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.rawFrame(Frame.HEADERS, END, 0x8000_0001, connection.request("GET", "/").bytes());
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }
    }

    @Nested
    @DisplayName("§4.2 Frame Size")
    class S4_2_FrameSize {
        @OverBothTransports
        @H2spec("http2/4.2/1")
        @DisplayName("§4.2 a DATA frame of exactly SETTINGS_MAX_FRAME_SIZE octets is accepted")
        void dataOfMaxFrameSizeIsAccepted(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                int max = connection.serverMaxFrameSize();
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.data(1, true, Octets.filler(max));
                Expect.Response response = Expect.response(connection, 1);
                assertEquals(200, response.status());
                assertEquals("body: " + max + " octets", response.lines().get(response.lines().size() - 1));
            }
        }

        @OverBothTransports
        @H2spec("http2/4.2/2")
        @DisplayName("§4.2 a DATA frame over SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR")
        void dataOverMaxFrameSize(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                int max = connection.serverMaxFrameSize();
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.data(1, true, Octets.filler(max + 1));
                Expect.streamError(connection, 1, ErrorCode.FRAME_SIZE_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/4.2/3")
        @DisplayName("§4.2 a HEADERS frame over SETTINGS_MAX_FRAME_SIZE is a connection error FRAME_SIZE_ERROR")
        void headersOverMaxFrameSize(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                byte[] block = blockOfLength(connection, connection.serverMaxFrameSize() + 1);
                connection.headers(1, END, block);
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }

        /** A GET's block made exactly {@code length} octets long with a filler field. */
        private byte[] blockOfLength(H2Connection connection, int length) {
            int base = connection.request("GET", "/").length();
            // the filler field costs its value plus 10 to 14 octets (representation, name, length prefix)
            for (int value = length - base - 14; value <= length - base; value++) {
                byte[] block = connection.request("GET", "/").field("x-filler", "x".repeat(value)).bytes();
                if (block.length == length) {
                    return block;
                }
            }
            throw new IllegalStateException("no block of " + length + " octets");
        }
    }

    @Nested
    @DisplayName("§4.3 Field Section Compression and Decompression")
    class S4_3_FieldSectionCompression {
        @OverBothTransports
        @H2spec("http2/4.3/1")
        @DisplayName("§4.3 a field block that does not decode is a connection error COMPRESSION_ERROR")
        void undecodableBlock(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                // a literal with a new name of 5 octets, of which the block holds 1
                FieldBlock block = connection.request("GET", "/").raw(0x40, 0x05, 'x');
                connection.headers(1, END, block);
                Expect.connectionError(connection, ErrorCode.COMPRESSION_ERROR);
            }
        }

        @OverBothTransports
        @H2spec({"http2/4.3/2", "http2/6.2/1"})
        @DisplayName("§4.3 a PRIORITY frame between HEADERS and its CONTINUATION is a connection error PROTOCOL_ERROR")
        void priorityInsideFieldBlock(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.priority(1, false, 0, 16);
                connection.continuation(1, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec({"http2/4.3/3", "http2/6.2/2"})
        @DisplayName("§4.3 HEADERS of another stream inside a field block is a connection error PROTOCOL_ERROR")
        void headersOfAnotherStreamInsideFieldBlock(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.headers(3, END, connection.request("GET", "/"));
                connection.continuation(1, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }
}
