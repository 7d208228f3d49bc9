package dev.fleche.transport.internal.exchange;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} of responses (RFC 9110 6.6.1) for the current second, formatted at most once a second: as an
 * HTTP/1.1 field line, or as the value HTTP/2 encodes. One per reactor (and one for the acceptor); one thread only.
 */
public final class HttpDate {
    /** RFC 9110 5.6.7; not {@code RFC_1123_DATE_TIME}, which writes days 1-9 with one digit. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private long second = Long.MIN_VALUE;
    private byte[] field;
    private String text;

    /** The {@code Date} field line ({@code Date: ...} and CRLF) for the current second. */
    public byte[] field() {
        refresh();
        return field;
    }

    /** The {@code Date} value for the current second. */
    public String value() {
        refresh();
        return text;
    }

    private void refresh() {
        long now = System.currentTimeMillis() / 1000;
        if (now != second) {
            String value = IMF_FIXDATE.format(Instant.ofEpochSecond(now).atOffset(ZoneOffset.UTC));
            field = ("Date: " + value + "\r\n").getBytes(StandardCharsets.US_ASCII);
            text = value;
            second = now;
        }
    }
}
