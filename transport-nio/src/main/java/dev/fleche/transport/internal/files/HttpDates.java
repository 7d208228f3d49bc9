package dev.fleche.transport.internal.files;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 5.6.7): written as IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}); read in that form and
 * the two obsolete ones a recipient must accept (RFC 850 {@code Sunday, 06-Nov-94 08:49:37 GMT}, asctime
 * {@code Sun Nov  6 08:49:37 1994}). Seconds since the epoch, since HTTP dates have no finer resolution.
 */
final class HttpDates {
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC_850 =
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);
    /** Longest date worth parsing; a longer field is not a date. */
    private static final int MAX_LENGTH = 40;

    /** The last date formatted, as one object so that threads see its two halves together. */
    private record Formatted(long seconds, String text) {
    }

    private static volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

    private HttpDates() {
    }

    /** {@code epochSeconds} as IMF-fixdate. */
    static String format(long epochSeconds) {
        Formatted cached = last;
        if (cached.seconds == epochSeconds) {
            return cached.text;
        }
        String text = IMF_FIXDATE.format(Instant.ofEpochSecond(epochSeconds));
        last = new Formatted(epochSeconds, text);
        return text;
    }

    /** The date in {@code value} as seconds since the epoch, or {@link Long#MIN_VALUE} when it is not a valid date. */
    static long parse(String value) {
        if (value == null || value.length() > MAX_LENGTH) {
            return Long.MIN_VALUE;
        }
        String text = value.trim();
        for (DateTimeFormatter format : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                ZonedDateTime date = ZonedDateTime.parse(text, format);
                if (format == RFC_850 && date.getYear() > ZonedDateTime.now(ZoneOffset.UTC).getYear() + 50) {
                    date = date.minusYears(100); // RFC 9110 5.6.7: the most recent past year with those digits
                }
                return date.toEpochSecond();
            } catch (DateTimeParseException e) {
                // the next form
            }
        }
        return Long.MIN_VALUE;
    }
}
