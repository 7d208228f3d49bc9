package dev.fleche.transport.internal.files;

import dev.fleche.transport.HttpFields;

/**
 * What a {@code GET} or {@code HEAD} of a representation answers, from its validators and the request's conditional
 * and range fields, in RFC 9110 13.2.2's order: {@code If-Match} that holds neither {@code *} nor the entity tag
 * (strong comparison: a weak tag never matches) else an {@code If-Unmodified-Since} date older than the last
 * modification gives {@code 412}; {@code If-None-Match} (weak comparison; {@code *} matches) else
 * {@code If-Modified-Since} gives {@code 304}; then a single {@code Range} of bytes, honoured when {@code If-Range}
 * is absent or matches (a strong entity tag, or the exact {@code Last-Modified} date), gives {@code 206} or, when
 * none of its bytes exist, {@code 416}. Anything else, malformed fields and several ranges included, is the whole
 * representation ({@code 200}; RFC 9110 14.2 lets a server ignore a {@code Range}). A date that does not parse is
 * ignored (RFC 9110 13.1.3, 13.1.4); a malformed {@code If-Match} list matches nothing.
 *
 * @param status {@code 200}, {@code 206}, {@code 304}, {@code 412} or {@code 416}
 * @param first  the first byte to send ({@code 206})
 * @param length the bytes to send ({@code 200}, {@code 206})
 */
record Conditions(int status, long first, long length) {
    /** Most characters of a {@code Range} value worth parsing. */
    private static final int MAX_RANGE_LENGTH = 64;

    static Conditions evaluate(HttpFields request, String etag, long modifiedSeconds, long size) {
        String match = request.get("If-Match");
        if (match != null) {
            if (!anyMatches(match, etag, true)) {
                return new Conditions(412, 0, 0);
            }
        } else if (modifiedSeconds >= 0) {
            long since = HttpDates.parse(request.get("If-Unmodified-Since"));
            if (since != Long.MIN_VALUE && modifiedSeconds > since) {
                return new Conditions(412, 0, 0);
            }
        }
        String noneMatch = request.get("If-None-Match");
        if (noneMatch != null) {
            if (anyMatches(noneMatch, etag, false)) {
                return new Conditions(304, 0, 0);
            }
        } else if (modifiedSeconds >= 0) {
            long since = HttpDates.parse(request.get("If-Modified-Since"));
            if (since != Long.MIN_VALUE && modifiedSeconds <= since) {
                return new Conditions(304, 0, 0);
            }
        }
        String range = request.get("Range");
        if (range == null || !ifRangeHolds(request.get("If-Range"), etag, modifiedSeconds)) {
            return new Conditions(200, 0, size);
        }
        return range(range, size);
    }

    /** A single {@code bytes} range of a representation of {@code size} bytes; {@code 200} when not one. */
    static Conditions range(String value, long size) {
        Conditions whole = new Conditions(200, 0, size);
        String text = value.trim();
        if (text.length() > MAX_RANGE_LENGTH || !text.regionMatches(true, 0, "bytes=", 0, 6)
                || text.indexOf(',') >= 0) {
            return whole;
        }
        String spec = text.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return whole;
        }
        long start = digits(spec, 0, dash);
        long end = digits(spec, dash + 1, spec.length());
        if (dash == 0) { // suffix: the last N bytes
            if (end < 0) {
                return whole;
            }
            if (end == 0 || size == 0) {
                return new Conditions(416, 0, 0);
            }
            long n = Math.min(end, size);
            return new Conditions(206, size - n, n);
        }
        if (start < 0 || (dash < spec.length() - 1 && end < 0) || (end >= 0 && end < start)) {
            return whole; // malformed: ignored
        }
        if (start >= size) {
            return new Conditions(416, 0, 0);
        }
        long last = end < 0 || end >= size ? size - 1 : end;
        return new Conditions(206, start, last - start + 1);
    }

    /** The decimal number {@code text[from, to)}, or -1 when it is empty, not digits, or beyond 18 digits. */
    private static long digits(String text, int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** {@code If-Range} (RFC 9110 13.1.5): absent, or a strong match of the entity tag, or the exact date. */
    private static boolean ifRangeHolds(String ifRange, String etag, long modifiedSeconds) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"") || value.startsWith("W/")) {
            return value.equals(etag); // strong comparison: a weak tag never matches
        }
        long date = HttpDates.parse(value);
        return date != Long.MIN_VALUE && date == modifiedSeconds;
    }

    /**
     * Whether an {@code If-Match} or {@code If-None-Match} list holds {@code *} or {@code etag} (a representation's
     * tag, always strong): compared strongly (the listed tag strong too, RFC 9110 8.8.3.2) when {@code strong}, else
     * weakly (a listed {@code W/} tag matches too).
     */
    static boolean anyMatches(String list, String etag, boolean strong) {
        int i = 0;
        int n = list.length();
        while (i < n) {
            while (i < n && (list.charAt(i) == ' ' || list.charAt(i) == '\t' || list.charAt(i) == ',')) {
                i++;
            }
            if (i >= n) {
                break;
            }
            if (list.charAt(i) == '*') {
                return true;
            }
            boolean weak = list.startsWith("W/", i);
            if (weak) {
                i += 2;
            }
            if (i >= n || list.charAt(i) != '"') {
                return false; // malformed: nothing matches
            }
            int close = list.indexOf('"', i + 1);
            if (close < 0) {
                return false;
            }
            if (list.regionMatches(i, etag, 0, etag.length()) && close - i + 1 == etag.length()
                    && !(strong && weak)) {
                return true;
            }
            i = close + 1;
        }
        return false;
    }
}
