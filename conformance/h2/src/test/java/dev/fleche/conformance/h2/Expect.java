package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.Frame.Field;
import dev.fleche.conformance.h2.client.H2Connection;
import dev.fleche.conformance.h2.client.H2Connection.Closed;
import dev.fleche.conformance.h2.client.H2Connection.Event;
import dev.fleche.conformance.h2.client.H2Connection.Received;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What the server must answer, read from the connection: each method waits for one kind of answer, lets pass the
 * frames a conforming server may send meanwhile (window updates, acknowledgements, responses on streams the test
 * opened) and fails, with the transcript, on anything else, on the connection's end, or after
 * {@link H2Connection#WAIT} without an answer.
 *
 * <p>Errors are held to RFC 9113 5.4: a connection error is a GOAWAY carrying the expected code, then the close of
 * the connection (5.4.1: the GOAWAY is a SHOULD, the close a MUST; our server sends both, and a bare close would
 * hide which rule it applied, so the suite asks for both); a stream error is a RST_STREAM of the stream with the
 * code, or the same code in a GOAWAY (5.4.1: an endpoint MAY treat a stream error as a connection error). Where
 * RFC 9113 allows more than one code, the test names each.
 */
final class Expect {
    /** At most this many frames pass while waiting for one answer: a server that floods fails rather than hangs. */
    private static final int MAX_FRAMES = 10_000;

    private Expect() {
    }

    /** A complete response: the final status, its fields, its content, its trailer fields (empty when none). */
    record Response(int status, List<Field> fields, byte[] body, List<Field> trailers) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The lines of the test handler's report (see {@link Servers}). */
        List<String> lines() {
            return List.of(text().split("\n"));
        }
    }

    /** A connection error of one of {@code codes}: GOAWAY with it, then the connection closed. */
    static Frame connectionError(H2Connection connection, ErrorCode... codes) {
        Frame goAway = await(connection, "GOAWAY " + names(codes),
                frame -> frame.type() == Frame.GOAWAY && carries(frame, codes),
                frame -> frame.type() != Frame.GOAWAY && frame.type() != Frame.RST_STREAM);
        closed(connection, "after its GOAWAY (RFC 9113 5.4.1: the endpoint MUST close the TCP connection)");
        return goAway;
    }

    /** A stream error of one of {@code codes} on {@code stream}: its RST_STREAM, or a GOAWAY with the code. */
    static Frame streamError(H2Connection connection, int stream, ErrorCode... codes) {
        Frame answer = await(connection, "RST_STREAM of stream " + stream + " or GOAWAY, " + names(codes),
                frame -> (frame.type() == Frame.RST_STREAM && frame.stream() == stream
                        || frame.type() == Frame.GOAWAY) && carries(frame, codes),
                frame -> background(frame) || frame.type() == Frame.HEADERS || frame.type() == Frame.DATA);
        if (answer.type() == Frame.GOAWAY) {
            closed(connection, "after its GOAWAY (RFC 9113 5.4.1)");
        }
        return answer;
    }

    /** A RST_STREAM of {@code stream} with {@code code}, where RFC 9113 names RST_STREAM itself (no GOAWAY). */
    static Frame reset(H2Connection connection, int stream, ErrorCode code) {
        return await(connection, "RST_STREAM of stream " + stream + ", " + code,
                frame -> frame.type() == Frame.RST_STREAM && frame.stream() == stream && carries(frame, code),
                frame -> background(frame) || frame.type() == Frame.HEADERS || frame.type() == Frame.DATA);
    }

    /** A PING acknowledgement carrying {@code opaque}: the server processed everything sent before the PING. */
    static void pingAck(H2Connection connection, byte[] opaque) {
        await(connection, "PING ACK with " + Arrays.toString(opaque),
                frame -> frame.type() == Frame.PING && frame.has(Frame.ACK)
                        && Arrays.equals(frame.payload(), opaque),
                frame -> frame.type() == Frame.WINDOW_UPDATE || isSettingsAck(frame)
                        || frame.type() == Frame.HEADERS || frame.type() == Frame.DATA);
    }

    /** The acknowledgement of a SETTINGS frame we sent. */
    static void settingsAck(H2Connection connection) {
        await(connection, "SETTINGS ACK", Expect::isSettingsAck,
                frame -> frame.type() == Frame.WINDOW_UPDATE || frame.type() == Frame.HEADERS
                        || frame.type() == Frame.DATA || isPingAck(frame));
    }

    /** The next DATA frame of {@code stream} (its response's HEADERS may come first). */
    static Frame data(H2Connection connection, int stream) {
        return await(connection, "DATA on stream " + stream,
                frame -> frame.type() == Frame.DATA && frame.stream() == stream,
                frame -> background(frame) || frame.type() == Frame.HEADERS && frame.stream() == stream
                        || otherStream(frame, stream));
    }

    /** A whole response on {@code stream}: interim responses skipped, DATA joined, trailers kept. */
    static Response response(H2Connection connection, int stream) {
        Frame head;
        do {
            head = await(connection, "response HEADERS on stream " + stream,
                    frame -> frame.type() == Frame.HEADERS && frame.stream() == stream,
                    frame -> background(frame) || otherStream(frame, stream));
        } while (head.field(":status") != null && head.field(":status").startsWith("1"));
        String status = head.field(":status");
        if (status == null || !head.fields().get(0).name().equals(":status")) {
            throw connection.failure("a response must start with :status (RFC 9113 8.3.2): " + head);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<Field> trailers = List.of();
        boolean end = head.has(Frame.END_STREAM);
        while (!end) {
            Frame next = await(connection, "DATA or trailers on stream " + stream,
                    frame -> (frame.type() == Frame.DATA || frame.type() == Frame.HEADERS)
                            && frame.stream() == stream,
                    frame -> background(frame) || otherStream(frame, stream));
            if (next.type() == Frame.DATA) {
                body.writeBytes(next.data());
            } else {
                trailers = next.fields();
            }
            end = next.has(Frame.END_STREAM);
        }
        return new Response(Integer.parseInt(status), head.fields(), body.toByteArray(), trailers);
    }

    /** The connection closed, any frames before the close let pass. */
    static void closed(H2Connection connection, String why) {
        for (int i = 0; i < MAX_FRAMES; i++) {
            Event event = connection.next();
            if (event instanceof Closed) {
                return;
            }
            if (!(event instanceof Received)) {
                throw connection.failure("the connection is still open " + why + ": " + event);
            }
        }
        throw connection.failure("the connection is still open " + why + " after " + MAX_FRAMES + " frames");
    }

    /**
     * After a GOAWAY from the client, the connection goes on or ends without an error: a PING ACK with
     * {@code opaque}, or a GOAWAY of NO_ERROR and the close (RFC 9113 6.8: the sender of GOAWAY gets its streams
     * finished, and either side may then close).
     */
    static void pingAckOrGracefulEnd(H2Connection connection, byte[] opaque) {
        for (int i = 0; i < MAX_FRAMES; i++) {
            Event event = connection.next();
            if (event instanceof Closed) {
                return;
            }
            if (!(event instanceof Received received)) {
                throw connection.failure("expected a PING ACK or a graceful end, got " + event);
            }
            Frame frame = received.frame();
            if (isPingAck(frame) && Arrays.equals(frame.payload(), opaque)) {
                return;
            }
            boolean graceful = frame.type() == Frame.GOAWAY && frame.errorCode() == ErrorCode.NO_ERROR.code();
            if (!graceful && !background(frame) && frame.type() != Frame.HEADERS && frame.type() != Frame.DATA) {
                throw connection.failure("expected a PING ACK or a graceful end, got " + frame);
            }
        }
        throw connection.failure("no PING ACK nor end after " + MAX_FRAMES + " frames");
    }

    /** Waits for a frame that {@code match}es, letting pass those that {@code mayPass}; fails on anything else. */
    static Frame await(H2Connection connection, String what, Predicate<Frame> match, Predicate<Frame> mayPass) {
        for (int i = 0; i < MAX_FRAMES; i++) {
            Event event = connection.next();
            if (!(event instanceof Received received)) {
                throw connection.failure("expected " + what + ", got " + event);
            }
            Frame frame = received.frame();
            if (match.test(frame)) {
                return frame;
            }
            if (!mayPass.test(frame)) {
                throw connection.failure("expected " + what + ", got " + frame);
            }
        }
        throw connection.failure("expected " + what + ", got " + MAX_FRAMES + " other frames");
    }

    /** Frames a conforming server may send at any time: window updates, acknowledgements. */
    static boolean background(Frame frame) {
        return frame.type() == Frame.WINDOW_UPDATE || isSettingsAck(frame) || isPingAck(frame);
    }

    private static boolean otherStream(Frame frame, int stream) {
        return frame.stream() != 0 && frame.stream() != stream
                && (frame.type() == Frame.HEADERS || frame.type() == Frame.DATA);
    }

    private static boolean isSettingsAck(Frame frame) {
        return frame.type() == Frame.SETTINGS && frame.has(Frame.ACK);
    }

    private static boolean isPingAck(Frame frame) {
        return frame.type() == Frame.PING && frame.has(Frame.ACK);
    }

    private static boolean carries(Frame frame, ErrorCode... codes) {
        int code = frame.errorCode();
        return Arrays.stream(codes).anyMatch(c -> c.code() == code);
    }

    private static String names(ErrorCode... codes) {
        return Arrays.stream(codes).map(Enum::name).collect(Collectors.joining(" or "));
    }
}
