package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.FieldBlock;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import dev.fleche.conformance.h2.client.Setting;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.Octets.PING_DATA;
import static dev.fleche.conformance.h2.Octets.ascii;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * RFC 9113 section 5: streams and multiplexing. Where a case needs a stream to stay half-closed (remote) while the
 * test acts on it, the connection starts with SETTINGS_INITIAL_WINDOW_SIZE 0, so that the server can send the
 * response's HEADERS but none of its DATA, and the stream cannot close under the test.
 */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §5 Streams and Multiplexing")
class StreamsTest {
    private static final int END = Frame.END_HEADERS | Frame.END_STREAM;

    /** A connection whose streams get no send window: a request's response waits after its HEADERS. */
    static H2Connection stalled(Transport transport) {
        return transport.connect(Setting.INITIAL_WINDOW_SIZE, 0);
    }

    @Nested
    @DisplayName("§5.1 Stream States")
    class S5_1_StreamStates {
        @OverBothTransports
        @H2spec("generic/2/1")
        @DisplayName("§5.1 idle: PRIORITY is accepted, and the stream can still be opened")
        void idlePriority(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(1, false, 0, 256);
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/1")
        @DisplayName("§5.1 idle: DATA is PROTOCOL_ERROR (§5.1) or STREAM_CLOSED (§6.1)")
        void idleData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.data(1, true, ascii("test"));
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/2")
        @DisplayName("§5.1 idle: RST_STREAM is a connection error PROTOCOL_ERROR")
        void idleRstStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.rstStream(1, ErrorCode.CANCEL.code());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/3")
        @DisplayName("§5.1 idle: WINDOW_UPDATE is a connection error PROTOCOL_ERROR")
        void idleWindowUpdate(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.windowUpdate(1, 100);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/4")
        @DisplayName("§5.1 idle: CONTINUATION is a connection error PROTOCOL_ERROR")
        void idleContinuation(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.continuation(1, true, connection.request("GET", "/").bytes());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/5")
        @DisplayName("§5.1 half-closed (remote): DATA is a stream error STREAM_CLOSED")
        void halfClosedRemoteData(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.data(1, true, ascii("test"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/6")
        @DisplayName("§5.1 half-closed (remote): HEADERS is a stream error STREAM_CLOSED")
        void halfClosedRemoteHeaders(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.headers(1, END, FieldBlock.of("x-late", "1"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/7")
        @DisplayName("§5.1 half-closed (remote): CONTINUATION is STREAM_CLOSED, or PROTOCOL_ERROR (§6.10)")
        void halfClosedRemoteContinuation(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("generic/2/2")
        @DisplayName("§5.1 half-closed (remote): WINDOW_UPDATE is accepted and opens the window by its increment")
        void halfClosedRemoteWindowUpdate(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.windowUpdate(1, 1);
                assertEquals(1, Expect.data(connection, 1).payload().length);
            }
        }

        @OverBothTransports
        @H2spec("generic/2/3")
        @DisplayName("§5.1 half-closed (remote): PRIORITY is accepted")
        void halfClosedRemotePriority(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.priority(1, false, 0, 256);
                connection.windowUpdate(1, 1);
                assertEquals(1, Expect.data(connection, 1).payload().length);
            }
        }

        @OverBothTransports
        @H2spec("generic/2/4")
        @DisplayName("§5.1 half-closed (remote): RST_STREAM is accepted, and not answered with one (§5.4.2)")
        void halfClosedRemoteRstStream(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                connection.get(1, "/");
                connection.rstStream(1, ErrorCode.CANCEL.code());
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @H2spec("generic/2/5")
        @DisplayName("§5.1 closed: PRIORITY is accepted")
        void closedPriority(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.priority(1, false, 0, 256);
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/8")
        @DisplayName("§5.1 closed by our RST_STREAM: DATA is STREAM_CLOSED")
        void resetThenData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.rstStream(1, ErrorCode.CANCEL.code());
                connection.data(1, true, ascii("test"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/9")
        @DisplayName("§5.1 closed by our RST_STREAM: HEADERS is STREAM_CLOSED")
        void resetThenHeaders(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.rstStream(1, ErrorCode.CANCEL.code());
                connection.headers(1, END, FieldBlock.of("x-late", "1"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/10")
        @DisplayName("§5.1 closed by our RST_STREAM: CONTINUATION is STREAM_CLOSED or PROTOCOL_ERROR")
        void resetThenContinuation(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.rstStream(1, ErrorCode.CANCEL.code());
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/11")
        @DisplayName("§5.1 closed (END_STREAM both ways): DATA is STREAM_CLOSED")
        void closedData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.data(1, true, ascii("test"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/12")
        @DisplayName("§5.1 closed (END_STREAM both ways): HEADERS is a connection error STREAM_CLOSED")
        void closedHeaders(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.get(1, "/");
                Expect.connectionError(connection, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1/13")
        @DisplayName("§5.1 closed (END_STREAM both ways): CONTINUATION is a connection error")
        void closedContinuation(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.connectionError(connection, ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§5.1.1 Stream Identifiers")
    class S5_1_1_StreamIdentifiers {
        @OverBothTransports
        @H2spec("http2/5.1.1/1")
        @DisplayName("§5.1.1 a client stream with an even identifier is a connection error PROTOCOL_ERROR")
        void evenIdentifier(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(2, "/");
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.1.1/2")
        @DisplayName("§5.1.1 a new stream with a lower identifier than one opened is a connection error "
                + "PROTOCOL_ERROR")
        void lowerIdentifier(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(5, "/");
                connection.get(3, "/");
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("generic/3.3/5")
        @DisplayName("§5.1.1 PRIORITY for idle stream 3 opens nothing: stream 1 can still be opened")
        void priorityOpensNoStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(3, false, 0, 256);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }
    }

    @Nested
    @DisplayName("§5.1.2 Stream Concurrency")
    class S5_1_2_StreamConcurrency {
        @OverBothTransports
        @H2spec("http2/5.1.2/1")
        @DisplayName("§5.1.2 a stream beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS is PROTOCOL_ERROR or "
                + "REFUSED_STREAM")
        void beyondMaxConcurrentStreams(Transport transport) {
            try (H2Connection connection = stalled(transport)) {
                Long limit = connection.serverSetting(Setting.MAX_CONCURRENT_STREAMS);
                Assumptions.assumeTrue(limit != null && limit < 10_000,
                        "the server advertises no (or a huge) SETTINGS_MAX_CONCURRENT_STREAMS");
                int stream = 1;
                for (long i = 0; i <= limit; i++, stream += 2) {
                    connection.get(stream, "/");
                }
                Expect.streamError(connection, stream - 2, ErrorCode.PROTOCOL_ERROR, ErrorCode.REFUSED_STREAM);
            }
        }
    }

    /**
     * RFC 7540 5.3.1 made a self-dependency a stream error PROTOCOL_ERROR. RFC 9113 5.3.2 deprecates the priority
     * signals of RFC 7540 and keeps only the frame fields and some of their handling; h2spec (written for RFC 7540)
     * still checks this rule, and so does the suite: a server that keeps it conforms to both.
     */
    @Nested
    @DisplayName("§5.3 Prioritization (RFC 7540 §5.3.1: no stream depends on itself)")
    class S5_3_Prioritization {
        @OverBothTransports
        @H2spec("http2/5.3.1/1")
        @DisplayName("§5.3 HEADERS whose priority depends on its own stream is a stream error PROTOCOL_ERROR")
        void headersDependingOnItself(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headersWithPriority(1, END, false, 1, 256, connection.request("GET", "/").bytes());
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/5.3.1/2")
        @DisplayName("§5.3 PRIORITY that depends on its own stream is a stream error PROTOCOL_ERROR")
        void priorityDependingOnItself(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(1, false, 1, 256);
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§5.4.1 Connection Error Handling")
    class S5_4_1_ConnectionErrorHandling {
        @OverBothTransports
        @H2spec("http2/5.4.1/1")
        @DisplayName("§5.4.1 a connection error: GOAWAY naming the last stream processed, then the close")
        void goAwayThenClose(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.frame(Frame.PING, 0, 3, PING_DATA); // PING belongs to stream 0
                Frame goAway = Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
                assertEquals(1, goAway.lastStreamId(), "the last stream the server processed");
            }
        }
    }

    @Nested
    @DisplayName("§5.5 Extending HTTP/2")
    class S5_5_ExtendingHttp2 {
        @OverBothTransports
        @H2spec("http2/5.5/1")
        @DisplayName("§5.5 frames of unknown types are discarded, on stream 0 and on an idle stream")
        void unknownFramesAreDiscarded(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(0x7A, 0xFF, 0, Octets.filler(8));
                connection.frame(0x7B, 0x00, 1, Octets.filler(3));
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @H2spec("http2/5.5/2")
        @DisplayName("§5.5 a frame of an unknown type inside a field block is a connection error PROTOCOL_ERROR")
        void unknownFrameInsideFieldBlock(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.frame(0x7A, 0x00, 0, Octets.filler(8));
                connection.continuation(1, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }
}
