package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.FieldBlock;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import dev.fleche.conformance.h2.client.Setting;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.Octets.PING_DATA;
import static dev.fleche.conformance.h2.Octets.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 9113 section 6: the frame definitions, one nested class per frame type (and per subsection). */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §6 Frame Definitions")
class FrameDefinitionsTest {
    private static final int END = Frame.END_HEADERS | Frame.END_STREAM;

    /** The last line of the test handler's report: the content's length as the handler read it. */
    static String bodyLine(Expect.Response response) {
        return response.lines().stream().filter(line -> line.startsWith("body: ")).findFirst().orElseThrow();
    }

    /** A POST's HEADERS on {@code stream}, END_STREAM clear: the request's content follows in DATA. */
    static void post(H2Connection connection, int stream) {
        connection.headers(stream, Frame.END_HEADERS, connection.request("POST", "/"));
    }

    @Nested
    @DisplayName("§6.1 DATA")
    class S6_1_Data {
        @OverBothTransports
        @H2spec("generic/3.1/1")
        @DisplayName("§6.1 a DATA frame carries the request's content")
        void data(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, true, ascii("test"));
                assertEquals("body: 4 octets", bodyLine(Expect.response(connection, 1)));
            }
        }

        @OverBothTransports
        @H2spec("generic/3.1/2")
        @DisplayName("§6.1 several DATA frames carry one content")
        void severalData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, false, ascii("test"));
                connection.data(1, false, new byte[0]);
                connection.data(1, true, ascii("test"));
                assertEquals("body: 8 octets", bodyLine(Expect.response(connection, 1)));
            }
        }

        @OverBothTransports
        @H2spec("generic/3.1/3")
        @DisplayName("§6.1 a padded DATA frame: the padding is not content")
        void paddedData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.dataPadded(1, true, ascii("test"), 5);
                assertEquals("body: 4 octets", bodyLine(Expect.response(connection, 1)));
            }
        }

        @OverBothTransports
        @H2spec("http2/6.1/1")
        @DisplayName("§6.1 DATA on stream 0 is a connection error PROTOCOL_ERROR")
        void dataOnStreamZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.data(0, true, ascii("test"));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.1/2")
        @DisplayName("§6.1 DATA after the request's END_STREAM is a stream error STREAM_CLOSED")
        void dataAfterEndStream(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.headers(1, END, connection.request("POST", "/"));
                connection.data(1, true, ascii("test"));
                Expect.streamError(connection, 1, ErrorCode.STREAM_CLOSED);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.1/3")
        @DisplayName("§6.1 a pad length not shorter than the payload is a connection error PROTOCOL_ERROR")
        void padLengthBeyondPayload(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(1, Frame.END_HEADERS,
                        connection.request("POST", "/").field("content-length", "4"));
                // 5 octets of payload: pad length 6, then "Test"
                connection.rawFrame(Frame.DATA, Frame.PADDED | Frame.END_STREAM, 1, Octets.of(6, 'T', 'e', 's', 't'));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.2 HEADERS")
    class S6_2_Headers {
        @OverBothTransports
        @H2spec("generic/3.2/1")
        @DisplayName("§6.2 a HEADERS frame opens a stream and carries a request")
        void headers(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/headers");
                Expect.Response response = Expect.response(connection, 1);
                assertEquals(200, response.status());
                assertEquals("GET /headers", response.lines().get(0));
            }
        }

        @OverBothTransports
        @H2spec("generic/3.2/2")
        @DisplayName("§6.2 a padded HEADERS frame: the padding is not part of the block")
        void paddedHeaders(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headersPadded(1, END, connection.request("GET", "/padded").bytes(), 8);
                assertEquals("GET /padded", Expect.response(connection, 1).lines().get(0));
            }
        }

        @OverBothTransports
        @H2spec("generic/3.2/3")
        @DisplayName("§6.2 a HEADERS frame with priority fields: they are not part of the block")
        void headersWithPriority(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headersWithPriority(1, END, false, 0, 256,
                        connection.request("GET", "/prioritized").bytes());
                assertEquals("GET /prioritized", Expect.response(connection, 1).lines().get(0));
            }
        }

        @OverBothTransports
        @H2spec("http2/6.2/1")
        @DisplayName("§6.2 HEADERS without END_HEADERS followed by a PING is a connection error PROTOCOL_ERROR")
        void headersThenAnotherType(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.ping(false, PING_DATA);
                connection.continuation(1, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.2/2")
        @DisplayName("§6.2 HEADERS without END_HEADERS followed by a CONTINUATION of another stream is a "
                + "connection error PROTOCOL_ERROR")
        void headersThenContinuationOfAnotherStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.continuation(3, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.2/3")
        @DisplayName("§6.2 HEADERS on stream 0 is a connection error PROTOCOL_ERROR")
        void headersOnStreamZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.headers(0, END, connection.request("GET", "/"));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.2/4")
        @DisplayName("§6.2 a pad length not shorter than the payload is a connection error PROTOCOL_ERROR")
        void padLengthBeyondPayload(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                byte[] block = connection.request("GET", "/").bytes();
                ByteBuffer payload = ByteBuffer.allocate(1 + block.length).put((byte) (block.length + 2)).put(block);
                connection.rawFrame(Frame.HEADERS, END | Frame.PADDED, 1, payload.array());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.3 PRIORITY")
    class S6_3_Priority {
        @OverBothTransports
        @H2spec("generic/3.3/1")
        @DisplayName("§6.3 PRIORITY of weight 1 is accepted")
        void weightOne(Transport transport) {
            priorityThenRequest(transport, false, 0, 1);
        }

        @OverBothTransports
        @H2spec("generic/3.3/2")
        @DisplayName("§6.3 PRIORITY of weight 256 is accepted")
        void weight256(Transport transport) {
            priorityThenRequest(transport, false, 0, 256);
        }

        @OverBothTransports
        @H2spec("generic/3.3/3")
        @DisplayName("§6.3 PRIORITY with a dependency on another stream is accepted")
        void dependency(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(3, false, 1, 16);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @H2spec("generic/3.3/4")
        @DisplayName("§6.3 an exclusive PRIORITY is accepted")
        void exclusive(Transport transport) {
            priorityThenRequest(transport, true, 0, 16);
        }

        private void priorityThenRequest(Transport transport, boolean exclusive, int dependency, int weight) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(1, exclusive, dependency, weight);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @H2spec("http2/6.3/1")
        @DisplayName("§6.3 PRIORITY on stream 0 is a connection error PROTOCOL_ERROR")
        void priorityOnStreamZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.priority(0, false, 0, 16);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.3/2")
        @DisplayName("§6.3 PRIORITY of a length other than 5 is a stream error FRAME_SIZE_ERROR")
        void priorityOfWrongLength(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.get(1, "/");
                connection.frame(Frame.PRIORITY, 0, 1, Octets.of(0x80, 0, 0, 1));
                Expect.streamError(connection, 1, ErrorCode.FRAME_SIZE_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.4 RST_STREAM")
    class S6_4_RstStream {
        @OverBothTransports
        @H2spec("generic/3.4/1")
        @DisplayName("§6.4 RST_STREAM ends an open stream, and the connection goes on")
        void rstStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.rstStream(1, ErrorCode.CANCEL.code());
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
                connection.get(3, "/");
                assertEquals(200, Expect.response(connection, 3).status());
            }
        }

        @OverBothTransports
        @H2spec("http2/6.4/1")
        @DisplayName("§6.4 RST_STREAM on stream 0 is a connection error PROTOCOL_ERROR")
        void rstStreamOnStreamZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.rstStream(0, ErrorCode.CANCEL.code());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.4/2")
        @DisplayName("§6.4 RST_STREAM of an idle stream (above the last opened) is a connection error "
                + "PROTOCOL_ERROR")
        void rstStreamOnIdleStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                Expect.response(connection, 1);
                connection.rstStream(5, ErrorCode.CANCEL.code());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.4/3")
        @DisplayName("§6.4 RST_STREAM of a length other than 4 is a connection error FRAME_SIZE_ERROR")
        void rstStreamOfWrongLength(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.get(1, "/");
                connection.frame(Frame.RST_STREAM, 0, 1, Octets.of(0, 0, 0));
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.5 SETTINGS")
    class S6_5_Settings {
        @OverBothTransports
        @H2spec("generic/3.5/1")
        @DisplayName("§6.5 SETTINGS with each defined setting is acknowledged")
        void everyDefinedSetting(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(Setting.HEADER_TABLE_SIZE, 4096, Setting.ENABLE_PUSH, 1,
                        Setting.MAX_CONCURRENT_STREAMS, 100, Setting.INITIAL_WINDOW_SIZE, Setting.DEFAULT_WINDOW,
                        Setting.MAX_FRAME_SIZE, Setting.DEFAULT_MAX_FRAME_SIZE, Setting.MAX_HEADER_LIST_SIZE, 100);
                Expect.settingsAck(connection);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.5/1")
        @DisplayName("§6.5 SETTINGS ACK with a payload is a connection error FRAME_SIZE_ERROR")
        void ackWithPayload(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.SETTINGS, Frame.ACK, 0, new byte[1]);
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.5/2")
        @DisplayName("§6.5 SETTINGS on a stream other than 0 is a connection error PROTOCOL_ERROR")
        void settingsOnAStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.SETTINGS, 0, 1, Octets.of(0, Setting.MAX_CONCURRENT_STREAMS, 0, 0, 0, 100));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.5/3")
        @DisplayName("§6.5 SETTINGS whose length is not a multiple of 6 is a connection error FRAME_SIZE_ERROR")
        void lengthNotAMultipleOfSix(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.SETTINGS, 0, 0, Octets.of(0, Setting.MAX_CONCURRENT_STREAMS, 0));
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.5.2 Defined Settings")
    class S6_5_2_DefinedSettings {
        @OverBothTransports
        @H2spec("http2/6.5.2/1")
        @DisplayName("§6.5.2 SETTINGS_ENABLE_PUSH other than 0 or 1 is a connection error PROTOCOL_ERROR")
        void enablePushOfTwo(Transport transport) {
            settingIsConnectionError(transport, Setting.ENABLE_PUSH, 2, ErrorCode.PROTOCOL_ERROR);
        }

        @OverBothTransports
        @H2spec("http2/6.5.2/2")
        @DisplayName("§6.5.2 SETTINGS_INITIAL_WINDOW_SIZE of 2^31 is a connection error FLOW_CONTROL_ERROR")
        void initialWindowAboveMaximum(Transport transport) {
            settingIsConnectionError(transport, Setting.INITIAL_WINDOW_SIZE, 0x8000_0000,
                    ErrorCode.FLOW_CONTROL_ERROR);
        }

        @OverBothTransports
        @H2spec("http2/6.5.2/3")
        @DisplayName("§6.5.2 SETTINGS_MAX_FRAME_SIZE below 2^14 is a connection error PROTOCOL_ERROR")
        void maxFrameSizeBelowInitial(Transport transport) {
            settingIsConnectionError(transport, Setting.MAX_FRAME_SIZE, Setting.DEFAULT_MAX_FRAME_SIZE - 1,
                    ErrorCode.PROTOCOL_ERROR);
        }

        @OverBothTransports
        @H2spec("http2/6.5.2/4")
        @DisplayName("§6.5.2 SETTINGS_MAX_FRAME_SIZE above 2^24-1 is a connection error PROTOCOL_ERROR")
        void maxFrameSizeAboveMaximum(Transport transport) {
            settingIsConnectionError(transport, Setting.MAX_FRAME_SIZE, 1 << 24, ErrorCode.PROTOCOL_ERROR);
        }

        @OverBothTransports
        @H2spec("http2/6.5.2/5")
        @DisplayName("§6.5.2 a setting of an unknown identifier is ignored")
        void unknownSetting(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(0x7A7A, 1, 0xFF, 0xFFFF_FFFF);
                Expect.settingsAck(connection);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @DisplayName("§6.5.2 the largest values allowed are accepted: INITIAL_WINDOW_SIZE 2^31-1, "
                + "MAX_FRAME_SIZE 2^24-1, ENABLE_PUSH 0")
        void largestAllowedValues(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(Setting.INITIAL_WINDOW_SIZE, Setting.MAX_WINDOW,
                        Setting.MAX_FRAME_SIZE, (1 << 24) - 1, Setting.ENABLE_PUSH, 0);
                Expect.settingsAck(connection);
                connection.get(1, "/");
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        private void settingIsConnectionError(Transport transport, int setting, int value, ErrorCode code) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(setting, value);
                Expect.connectionError(connection, code);
            }
        }
    }

    @Nested
    @DisplayName("§6.5.3 Settings Synchronization")
    class S6_5_3_SettingsSynchronization {
        @OverBothTransports
        @H2spec("http2/6.5.3/1")
        @DisplayName("§6.5.3 settings apply in order: of two INITIAL_WINDOW_SIZE values in one frame, the last wins")
        void lastValueWins(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(Setting.INITIAL_WINDOW_SIZE, 100, Setting.INITIAL_WINDOW_SIZE, 1);
                Expect.settingsAck(connection);
                connection.get(1, "/");
                assertEquals(1, Expect.data(connection, 1).payload().length);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.5.3/2")
        @DisplayName("§6.5.3 a SETTINGS frame is acknowledged with an empty SETTINGS ACK")
        void acknowledged(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.settings(Setting.ENABLE_PUSH, 0);
                Frame ack = Expect.await(connection, "SETTINGS ACK",
                        frame -> frame.type() == Frame.SETTINGS, Expect::background);
                assertEquals(Frame.ACK, ack.flags());
                assertEquals(0, ack.payload().length);
            }
        }
    }

    @Nested
    @DisplayName("§6.7 PING")
    class S6_7_Ping {
        @OverBothTransports
        @H2spec({"generic/3.7/1", "http2/6.7/1"})
        @DisplayName("§6.7 PING is answered with a PING ACK of the same 8 octets")
        void ping(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.ping(false, PING_DATA);
                Frame ack = Expect.await(connection, "PING ACK", frame -> frame.type() == Frame.PING,
                        Expect::background);
                assertEquals(Frame.ACK, ack.flags());
                assertEquals(0, ack.stream());
                assertArrayEquals(PING_DATA, ack.payload());
            }
        }

        @OverBothTransports
        @H2spec("http2/6.7/2")
        @DisplayName("§6.7 a PING ACK is not answered")
        void ackIsNotAnswered(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.ping(true, ascii("unasked!"));
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA); // fails on an ACK of the unasked one first
            }
        }

        @OverBothTransports
        @H2spec("http2/6.7/3")
        @DisplayName("§6.7 PING on a stream other than 0 is a connection error PROTOCOL_ERROR")
        void pingOnAStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.PING, 0, 1, PING_DATA);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.7/4")
        @DisplayName("§6.7 PING of a length other than 8 is a connection error FRAME_SIZE_ERROR")
        void pingOfWrongLength(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.PING, 0, 0, new byte[6]);
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.8 GOAWAY")
    class S6_8_GoAway {
        @OverBothTransports
        @H2spec("generic/3.8/1")
        @DisplayName("§6.8 a client's GOAWAY is accepted: the connection goes on or ends without error")
        void goAway(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.goAway(0, ErrorCode.NO_ERROR.code(), ascii("bye"));
                connection.ping(false, PING_DATA);
                Expect.pingAckOrGracefulEnd(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @DisplayName("§6.8 after a client's GOAWAY, a stream it had opened still gets its response")
        void streamsBeforeGoAwayFinish(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.goAway(1, ErrorCode.NO_ERROR.code(), new byte[0]);
                connection.data(1, true, ascii("test"));
                assertEquals("body: 4 octets", bodyLine(Expect.response(connection, 1)));
            }
        }

        @OverBothTransports
        @H2spec("http2/6.8/1")
        @DisplayName("§6.8 GOAWAY on a stream other than 0 is a connection error PROTOCOL_ERROR")
        void goAwayOnAStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.GOAWAY, 0, 1, new byte[8]);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.9 WINDOW_UPDATE")
    class S6_9_WindowUpdate {
        @OverBothTransports
        @H2spec("generic/3.9/1")
        @DisplayName("§6.9 WINDOW_UPDATE of the connection is accepted")
        void connectionWindowUpdate(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.windowUpdate(0, 1);
                connection.ping(false, PING_DATA);
                Expect.pingAck(connection, PING_DATA);
            }
        }

        @OverBothTransports
        @H2spec("generic/3.9/2")
        @DisplayName("§6.9 WINDOW_UPDATE of a stream is accepted")
        void streamWindowUpdate(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.get(1, "/");
                connection.windowUpdate(1, 1);
                assertEquals(200, Expect.response(connection, 1).status());
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9/1")
        @DisplayName("§6.9 an increment of 0 for the connection is a connection error PROTOCOL_ERROR")
        void zeroIncrementForTheConnection(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.windowUpdate(0, 0);
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9/2")
        @DisplayName("§6.9 an increment of 0 for a stream is a stream error PROTOCOL_ERROR")
        void zeroIncrementForAStream(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.windowUpdate(1, 0);
                Expect.streamError(connection, 1, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9/3")
        @DisplayName("§6.9 WINDOW_UPDATE of a length other than 4 is a connection error FRAME_SIZE_ERROR")
        void windowUpdateOfWrongLength(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.WINDOW_UPDATE, 0, 0, Octets.of(0, 0, 1));
                Expect.connectionError(connection, ErrorCode.FRAME_SIZE_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.9.1 The Flow-Control Window")
    class S6_9_1_FlowControlWindow {
        @OverBothTransports
        @H2spec("http2/6.9.1/1")
        @DisplayName("§6.9.1 with an initial window of 1 the first DATA holds 1 octet; a WINDOW_UPDATE sends the "
                + "rest")
        void windowOfOne(Transport transport) {
            try (H2Connection connection = transport.connect(Setting.INITIAL_WINDOW_SIZE, 1)) {
                connection.get(1, "/");
                Frame first = Expect.data(connection, 1);
                assertEquals(1, first.payload().length);
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                body.writeBytes(first.payload());
                connection.windowUpdate(1, Setting.DEFAULT_WINDOW);
                for (Frame data = first; !data.has(Frame.END_STREAM); ) {
                    data = Expect.data(connection, 1);
                    body.writeBytes(data.payload());
                }
                assertTrue(body.toString(java.nio.charset.StandardCharsets.UTF_8).startsWith("GET /\n"), body::toString);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9.1/2")
        @DisplayName("§6.9.1 a connection window above 2^31-1 is a connection error FLOW_CONTROL_ERROR")
        void connectionWindowAboveMaximum(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.windowUpdate(0, Setting.MAX_WINDOW);
                connection.windowUpdate(0, Setting.MAX_WINDOW);
                Expect.connectionError(connection, ErrorCode.FLOW_CONTROL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9.1/3")
        @DisplayName("§6.9.1 a stream window above 2^31-1 is RST_STREAM FLOW_CONTROL_ERROR")
        void streamWindowAboveMaximum(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.windowUpdate(1, Setting.MAX_WINDOW);
                connection.windowUpdate(1, Setting.MAX_WINDOW);
                Expect.reset(connection, 1, ErrorCode.FLOW_CONTROL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.9.2 Initial Flow-Control Window Size")
    class S6_9_2_InitialWindowSize {
        @OverBothTransports
        @H2spec("http2/6.9.2/1")
        @DisplayName("§6.9.2 a new SETTINGS_INITIAL_WINDOW_SIZE changes the window of open streams")
        void changeAppliesToOpenStreams(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.get(1, "/");
                connection.settings(Setting.INITIAL_WINDOW_SIZE, 1);
                assertEquals(1, Expect.data(connection, 1).payload().length);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9.2/2")
        @DisplayName("§6.9.2 a smaller SETTINGS_INITIAL_WINDOW_SIZE can make a window negative; updates count "
                + "from there")
        void windowCanGoNegative(Transport transport) {
            try (H2Connection connection = transport.connect(Setting.INITIAL_WINDOW_SIZE, 3)) {
                connection.get(1, "/");
                assertEquals(3, Expect.data(connection, 1).payload().length);
                connection.settings(Setting.INITIAL_WINDOW_SIZE, 2); // the window: 2 - 3 = -1
                Expect.settingsAck(connection);
                connection.windowUpdate(1, 2); // -1 + 2 = 1
                assertEquals(1, Expect.data(connection, 1).payload().length);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.9.2/3")
        @DisplayName("§6.9.2 SETTINGS_INITIAL_WINDOW_SIZE of 2^32-1 (a value read unsigned) is a connection error "
                + "FLOW_CONTROL_ERROR")
        void initialWindowFarAboveMaximum(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                connection.frame(Frame.SETTINGS, 0, 0, Octets.of(0, Setting.INITIAL_WINDOW_SIZE, 0xFF, 0xFF, 0xFF, 0xFF));
                Expect.connectionError(connection, ErrorCode.FLOW_CONTROL_ERROR);
            }
        }

        @OverBothTransports
        @DisplayName("§6.9.2 a SETTINGS_INITIAL_WINDOW_SIZE change that takes a stream's window above 2^31-1 is a "
                + "connection error FLOW_CONTROL_ERROR")
        void changeBeyondMaximumWindow(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                post(connection, 1); // open, its response waiting for the content: nothing spends the window
                connection.windowUpdate(1, Setting.MAX_WINDOW); // the stream's window: 0 + 2^31-1
                connection.settings(Setting.INITIAL_WINDOW_SIZE, 1); // + 1
                Expect.connectionError(connection, ErrorCode.FLOW_CONTROL_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§6.10 CONTINUATION")
    class S6_10_Continuation {
        @OverBothTransports
        @H2spec("generic/3.10/1")
        @DisplayName("§6.10 a field block in HEADERS and one CONTINUATION is one request")
        void oneContinuation(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/continued");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 5));
                connection.continuation(1, true, block.slice(5, block.length()));
                assertEquals("GET /continued", Expect.response(connection, 1).lines().get(0));
            }
        }

        @OverBothTransports
        @H2spec({"generic/3.10/2", "http2/6.10/1"})
        @DisplayName("§6.10 a field block over HEADERS and several CONTINUATIONs, cut inside a string, is one "
                + "request")
        void severalContinuations(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/continued").field("x-long", "v".repeat(40));
                int n = block.length();
                connection.headers(1, Frame.END_STREAM, block.slice(0, 3));
                connection.continuation(1, false, block.slice(3, n - 20));
                connection.continuation(1, false, new byte[0]);
                connection.continuation(1, true, block.slice(n - 20, n));
                List<String> lines = Expect.response(connection, 1).lines();
                assertEquals("GET /continued", lines.get(0));
                assertTrue(lines.contains("x-long: " + "v".repeat(40)), lines::toString);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.10/2")
        @DisplayName("§6.10 a CONTINUATION without END_HEADERS followed by DATA is a connection error "
                + "PROTOCOL_ERROR")
        void continuationThenData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("POST", "/");
                connection.headers(1, 0, block.slice(0, 4));
                connection.continuation(1, false, block.slice(4, block.length()));
                connection.data(1, true, ascii("test"));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.10/3")
        @DisplayName("§6.10 CONTINUATION on stream 0 is a connection error PROTOCOL_ERROR")
        void continuationOnStreamZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/");
                connection.headers(1, Frame.END_STREAM, block.slice(0, 4));
                connection.continuation(0, true, block.slice(4, block.length()));
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.10/4")
        @DisplayName("§6.10 CONTINUATION after HEADERS with END_HEADERS is a connection error PROTOCOL_ERROR")
        void continuationAfterEndHeaders(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                connection.headers(1, Frame.END_HEADERS, connection.request("POST", "/"));
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.10/5")
        @DisplayName("§6.10 CONTINUATION after a CONTINUATION with END_HEADERS is a connection error PROTOCOL_ERROR")
        void continuationAfterClosingContinuation(Transport transport) {
            try (H2Connection connection = StreamsTest.stalled(transport)) {
                FieldBlock block = connection.request("POST", "/");
                connection.headers(1, 0, block.slice(0, 4));
                connection.continuation(1, true, block.slice(4, block.length()));
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }

        @OverBothTransports
        @H2spec("http2/6.10/6")
        @DisplayName("§6.10 CONTINUATION after DATA is a connection error PROTOCOL_ERROR")
        void continuationAfterData(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                post(connection, 1);
                connection.data(1, false, ascii("test"));
                connection.continuation(1, true, FieldBlock.of("x-late", "1").bytes());
                Expect.connectionError(connection, ErrorCode.PROTOCOL_ERROR);
            }
        }
    }
}
