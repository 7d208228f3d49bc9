package dev.fleche.transport.internal.telemetry.accesslog;

import dev.fleche.transport.AccessLog;
import dev.fleche.transport.HttpFields;

import java.net.InetAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Turns a {@link LogEntry} into one line of an {@link AccessLog.Format}, on the writer thread. Values from the
 * request go through {@link LogText}, bounded: the target to {@value #MAX_TARGET} characters, the user agent to
 * {@value #MAX_USER_AGENT}, the referer to {@value #MAX_REFERER}, request ids and client addresses to
 * {@value #MAX_ID}.
 */
final class LineFormat {
    static final int MAX_TARGET = 2048;
    static final int MAX_USER_AGENT = 512;
    static final int MAX_REFERER = 1024;
    static final int MAX_ID = 128;

    private static final DateTimeFormatter CLF_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH).withZone(ZoneOffset.UTC);
    /** The JSON format's time is this, {@code .}, three digits of milliseconds and {@code Z}. */
    private static final DateTimeFormatter ISO_SECOND =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final AccessLog.Format format;
    /** The second whose text {@link #secondText} holds ({@code Long.MIN_VALUE}: none yet); the writer's thread only. */
    private long second = Long.MIN_VALUE;
    private String secondText;

    LineFormat(AccessLog.Format format) {
        this.format = format;
    }

    /** Appends the line of {@code entry}, without a line end. */
    void append(StringBuilder out, LogEntry entry) {
        switch (format) {
            case COMMON -> common(out, entry);
            case COMBINED -> {
                common(out, entry);
                out.append(" \"");
                textOrDash(out, header(entry, "Referer"), MAX_REFERER);
                out.append("\" \"");
                textOrDash(out, header(entry, "User-Agent"), MAX_USER_AGENT);
                out.append('"');
            }
            case JSON -> json(out, entry);
        }
        if (format != AccessLog.Format.JSON) {
            if (entry.rule != null) {
                out.append(" rule=").append(entry.rule);
            }
            if (entry.cut) {
                out.append(" cut");
            }
        }
    }

    private void common(StringBuilder out, LogEntry entry) {
        textOrDash(out, remote(entry), MAX_ID);
        out.append(" - - [").append(second(startMillis(entry), CLF_TIME)).append("] \"");
        if (entry.head == null) {
            out.append('-');
        } else {
            LogText.text(out, entry.head.method(), MAX_ID);
            out.append(' ');
            LogText.text(out, entry.head.target(), MAX_TARGET);
            out.append(' ').append(protocol(entry));
        }
        out.append("\" ");
        if (entry.status == 0) {
            out.append('-');
        } else {
            out.append(entry.status);
        }
        out.append(' ');
        if (entry.bytesOut == 0) {
            out.append('-');
        } else {
            out.append(entry.bytesOut);
        }
    }

    private void json(StringBuilder out, LogEntry entry) {
        long start = startMillis(entry);
        int millis = (int) Math.floorMod(start, 1000L);
        out.append("{\"time\":\"").append(second(start, ISO_SECOND)).append('.')
                .append((char) ('0' + millis / 100)).append((char) ('0' + millis / 10 % 10))
                .append((char) ('0' + millis % 10)).append("Z\"");
        jsonField(out, "remote", remote(entry), MAX_ID);
        if (entry.head != null) {
            jsonField(out, "method", entry.head.method(), MAX_ID);
            jsonField(out, "target", entry.head.target(), MAX_TARGET);
            out.append(",\"protocol\":\"").append(protocol(entry)).append('"');
        } else if (entry.protocol != null) {
            out.append(",\"protocol\":\"").append(entry.protocol).append('"');
        }
        out.append(",\"status\":").append(entry.status);
        out.append(",\"bytesIn\":").append(entry.bytesIn);
        out.append(",\"bytesOut\":").append(entry.bytesOut);
        out.append(",\"durationMicros\":").append(entry.durationNanos / 1000);
        if (entry.connectionId != 0) {
            out.append(",\"connection\":").append(entry.connectionId);
        }
        jsonField(out, "requestId", requestId(entry), MAX_ID);
        jsonField(out, "traceId", traceId(entry), MAX_ID);
        if (entry.tlsProtocol != null) {
            jsonField(out, "tls", entry.tlsProtocol, MAX_ID);
        }
        jsonField(out, "userAgent", header(entry, "User-Agent"), MAX_USER_AGENT);
        jsonField(out, "referer", header(entry, "Referer"), MAX_REFERER);
        if (entry.rule != null) {
            out.append(",\"rule\":\"").append(entry.rule).append('"');
        }
        if (entry.cut) {
            out.append(",\"cut\":true");
        }
        out.append('}');
    }

    private static void jsonField(StringBuilder out, String name, String value, int max) {
        if (value != null) {
            out.append(",\"").append(name).append("\":");
            LogText.json(out, value, max);
        }
    }

    private static void textOrDash(StringBuilder out, String value, int max) {
        if (value == null || value.isEmpty()) {
            out.append('-');
        } else {
            LogText.text(out, value, max);
        }
    }

    /** When the head began to arrive, in milliseconds since the epoch. */
    private static long startMillis(LogEntry entry) {
        return entry.endWallMillis - entry.durationNanos / 1_000_000;
    }

    /**
     * The second of {@code millis} in {@code formatter}'s text, made once per second: a log is written in time order
     * (nearly), and formatting a time costs more than the rest of a line. A line's format uses one formatter.
     */
    private String second(long millis, DateTimeFormatter formatter) {
        long s = Math.floorDiv(millis, 1000L);
        if (s != second) {
            secondText = formatter.format(Instant.ofEpochSecond(s));
            second = s;
        }
        return secondText;
    }

    private static String protocol(LogEntry entry) {
        if (entry.head.majorVersion() == 2) {
            return "HTTP/2";
        }
        return entry.head.minorVersion() == 0 ? "HTTP/1.0" : "HTTP/1.1";
    }

    private static String remote(LogEntry entry) {
        if (entry.clientAddress != null) {
            return entry.clientAddress;
        }
        if (entry.peer == null) {
            return null;
        }
        InetAddress address = entry.peer.getAddress();
        return address != null ? address.getHostAddress() : entry.peer.getHostString();
    }

    private static String header(LogEntry entry, String name) {
        return entry.head == null ? null : entry.head.headers().get(name);
    }

    /** The id set from above, else a well-formed {@code X-Request-Id} of the request (one field), else null. */
    static String requestId(LogEntry entry) {
        if (entry.requestId != null || entry.head == null) {
            return entry.requestId;
        }
        HttpFields headers = entry.head.headers();
        String id = headers.get("X-Request-Id");
        return id != null && headers.getAll("X-Request-Id").size() == 1 && wellFormedId(id) ? id : null;
    }

    /** The trace id set from above, else that of a well-formed {@code traceparent} of the request, else null. */
    static String traceId(LogEntry entry) {
        if (entry.traceId != null || entry.head == null) {
            return entry.traceId;
        }
        String parent = entry.head.headers().get("traceparent");
        if (parent == null || parent.length() < 55 || parent.charAt(2) != '-' || parent.charAt(35) != '-'
                || parent.charAt(52) != '-' || (parent.length() > 55 && parent.charAt(55) != '-')
                || !lowerHex(parent, 0, 2) || parent.startsWith("ff")
                || (parent.startsWith("00") && parent.length() != 55) || !lowerHex(parent, 3, 35)
                || !lowerHex(parent, 36, 52) || !lowerHex(parent, 53, 55)) {
            return null;
        }
        String trace = parent.substring(3, 35);
        return trace.equals("00000000000000000000000000000000") ? null : trace;
    }

    private static boolean lowerHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** 1 to {@value #MAX_ID} characters out of {@code A-Z a-z 0-9 . _ : -}. */
    private static boolean wellFormedId(String id) {
        if (id.isEmpty() || id.length() > MAX_ID) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '_' || c == ':' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
