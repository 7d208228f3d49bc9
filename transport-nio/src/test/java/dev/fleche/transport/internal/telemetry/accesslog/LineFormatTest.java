package dev.fleche.transport.internal.telemetry.accesslog;

import dev.fleche.transport.AccessLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The times of lines: the text of a second is made once and reused; each line still has its own. */
@Timeout(10)
class LineFormatTest {
    private static String line(LineFormat format, String at, long durationNanos) {
        LogEntry entry = new LogEntry();
        entry.endWallMillis = Instant.parse(at).toEpochMilli();
        entry.durationNanos = durationNanos;
        entry.status = 200;
        StringBuilder out = new StringBuilder();
        format.append(out, entry);
        return out.toString();
    }

    @Test
    void jsonTimesAcrossSeconds() {
        LineFormat json = new LineFormat(AccessLog.Format.JSON);
        assertEquals("2026-01-02T03:04:05.999Z", time(line(json, "2026-01-02T03:04:05.999Z", 0)));
        assertEquals("2026-01-02T03:04:06.000Z", time(line(json, "2026-01-02T03:04:06Z", 0)));
        assertEquals("2026-01-02T03:04:06.007Z", time(line(json, "2026-01-02T03:04:06.007Z", 0)));
        // the start, a second earlier than the last line's: a line written late, out of order
        assertEquals("2026-01-02T03:04:05.507Z", time(line(json, "2026-01-02T03:04:06.007Z", 500_000_000)));
        assertEquals("2026-01-01T00:00:00.050Z", time(line(json, "2026-01-01T00:00:00.050Z", 0)));
        assertEquals("1969-12-31T23:59:59.999Z", time(line(json, "1969-12-31T23:59:59.999Z", 0)));
    }

    @Test
    void commonTimesAcrossSeconds() {
        LineFormat common = new LineFormat(AccessLog.Format.COMMON);
        assertEquals("- - - [02/Jan/2026:03:04:05 +0000] \"-\" 200 -", line(common, "2026-01-02T03:04:05.999Z", 0));
        assertEquals("- - - [02/Jan/2026:03:04:06 +0000] \"-\" 200 -", line(common, "2026-01-02T03:04:06Z", 0));
    }

    private static String time(String jsonLine) {
        int from = jsonLine.indexOf("\"time\":\"") + 8;
        return jsonLine.substring(from, jsonLine.indexOf('"', from));
    }
}
