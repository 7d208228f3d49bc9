package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.H2Connection;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static dev.fleche.conformance.h2.Octets.PING_DATA;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** RFC 9113 section 7: unknown or unsupported error codes MUST NOT trigger any special behaviour. */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 9113 §7 Error Codes")
class ErrorCodesTest {
    private static final int UNKNOWN_CODE = 0x7E57;

    @OverBothTransports
    @H2spec("http2/7/1")
    @DisplayName("§7 GOAWAY with an unknown error code: the connection goes on or ends without error")
    void unknownCodeInGoAway(Transport transport) {
        try (H2Connection connection = transport.connect()) {
            connection.goAway(0, UNKNOWN_CODE, new byte[0]);
            connection.ping(false, PING_DATA);
            Expect.pingAckOrGracefulEnd(connection, PING_DATA);
        }
    }

    @OverBothTransports
    @H2spec("http2/7/2")
    @DisplayName("§7 RST_STREAM with an unknown error code ends the stream; the connection goes on")
    void unknownCodeInRstStream(Transport transport) {
        try (H2Connection connection = transport.connect()) {
            FrameDefinitionsTest.post(connection, 1);
            connection.rstStream(1, UNKNOWN_CODE);
            connection.ping(false, PING_DATA);
            Expect.pingAck(connection, PING_DATA);
            connection.get(3, "/");
            assertEquals(200, Expect.response(connection, 3).status());
        }
    }
}
